import type { LmMessage } from '../../../src/host/models/lm/lmShapes';

// Fake classes of the vscode.lm part shapes, for the adapter's and the binding's tests: the code
// under test makes and recognises parts through classes like these (`instanceof`), as in VS Code.

export class Text {
  constructor(readonly value: string) {}
}
export class ToolCall {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
export class ToolResult {
  constructor(
    readonly callId: string,
    readonly content: object[],
  ) {}
}
export class Message implements LmMessage {
  constructor(
    readonly role: number,
    readonly content: object[],
  ) {}
}
