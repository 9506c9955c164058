import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptError, loadScript } from '../../../../src/core/models/scriptSchema';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'script-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('loadScript', () => {
  it('loads the script of the design', async () => {
    const path = await write(
      's.json',
      JSON.stringify({
        agents: {
          supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 't', agents: ['a', 'b'] } }] }, { text: 'done' }],
          a: [{ match: 't', delayMs: 200, text: 'from a', usage: { inputTokens: 5, outputTokens: 3 } }],
          b: [{ error: { status: 429, message: 'rate limited' } }, { text: 'from b' }],
        },
      }),
    );
    const script = await loadScript(path);
    expect(script.agents.b).toHaveLength(2);
    expect(script.agents.a![0]!.delayMs).toBe(200);
  });

  it('names a missing file', async () => {
    const path = join(dir, 'nope.json');
    await expect(loadScript(path)).rejects.toThrow(ScriptError);
    await expect(loadScript(path)).rejects.toThrow(`Cannot read the script file "${path}": there is no such file`);
  });

  it('gives the position of bad JSON', async () => {
    const path = await write('bad.json', '{\n  "agents": {\n    "a": [ { "text": "x" }, ]\n  }\n}');
    const error = await loadScript(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptError);
    expect((error as Error).message).toContain(`"${path}" is not valid JSON at line 3, column`);
  });

  it('gives the path of a schema problem', async () => {
    const path = await write('s.json', JSON.stringify({ agents: { a: [], b: [{ error: { status: '429', message: 'x' } }] } }));
    await expect(loadScript(path)).rejects.toThrow(/agents\.b\[0\]\.error\.status: .*expected number/);
  });

  it('refuses misspelt fields and bad regexes', async () => {
    const misspelt = await write('m.json', JSON.stringify({ agents: { a: [{ txt: 'x' }] } }));
    await expect(loadScript(misspelt)).rejects.toThrow(/agents\.a\[0\]: .*txt/);
    const regex = await write('r.json', JSON.stringify({ agents: { a: [{ match: '/(unclosed/' }] } }));
    await expect(loadScript(regex)).rejects.toThrow(/agents\.a\[0\]\.match: is not a valid regular expression/);
  });
});
