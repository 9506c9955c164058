import type { ChatCancellationToken, ChatStreamShape } from '../../../../src/host/chat/chatShapes';

/** A chat response stream of vscode.chat's shape that records what the participant wrote. */
export function recordingStream() {
  const parts: (
    { kind: 'markdown' | 'progress'; value: string } | { kind: 'button'; command: string; title: string; arguments?: unknown[] }
  )[] = [];
  const stream: ChatStreamShape = {
    markdown: (value) => parts.push({ kind: 'markdown', value }),
    progress: (value) => parts.push({ kind: 'progress', value }),
    button: (c) => parts.push({ kind: 'button', ...c }),
  };
  const text = (kind: 'markdown' | 'progress') => parts.flatMap((p) => (p.kind === kind ? [p.value] : []));
  return { stream, parts, markdown: () => text('markdown').join(''), progress: () => text('progress') };
}

/** A cancellation token of vscode's shape the test cancels. */
export function cancellation() {
  const listeners = new Set<() => void>();
  let cancelled = false;
  const token: ChatCancellationToken = {
    get isCancellationRequested() {
      return cancelled;
    },
    onCancellationRequested: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
  return {
    token,
    cancel: () => {
      cancelled = true;
      for (const l of [...listeners]) l();
    },
    listeners: () => listeners.size,
  };
}
