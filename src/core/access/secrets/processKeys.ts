import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { API_KEY_PROVIDERS, KEY_VARIABLES } from '../../models/keyVariables';

/**
 * The CLI's API keys, taken out of its environment at start-up: a command run without the OS
 * sandbox, as the same user, can read `/proc/<our pid>/environ`, and that file shows the
 * environment the process started with whatever process.env says later. So the keys are read,
 * deleted from process.env (nothing this process starts inherits them), and their bytes in the
 * start-up environment block are overwritten through /proc/self/mem (Linux). The extension host
 * does not do this: its environment is VS Code's, shared with other extensions, and its keys live
 * in the editor's secret storage.
 */

const taken = new Map<string, string>();

/** Takes OPENAI_API_KEY, ANTHROPIC_API_KEY and SUBAGENTS_API_KEY out; says why the start-up block could not be cleaned, if it could not. */
export function takeKeysOutOfEnvironment(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = API_KEY_PROVIDERS.map((p) => KEY_VARIABLES[p]).filter((name) => env[name] !== undefined);
  for (const name of names) {
    taken.set(name, env[name]!);
    delete env[name];
  }
  if (!names.length || process.platform !== 'linux') return undefined;
  try {
    overwriteStartupValues(names);
    return undefined;
  } catch (error) {
    return `could not clear ${names.join(', ')} from this process's start-up environment (${error instanceof Error ? error.message : String(error)}), so a command run without the sandbox could read them from /proc`;
  }
}

/** A key variable's value: taken at start-up, else (not taken: the tests, the extension) the environment's. */
export function keyVariable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return taken.get(name) ?? env[name];
}

/** `env` with the taken keys back in: for the code that reads keys from an environment record. */
export function withTakenKeys(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, ...Object.fromEntries(taken) };
}

/** Overwrites `NAME=value` entries' values in [env_start, env_end) of /proc/self/mem with `*`. */
function overwriteStartupValues(names: readonly string[]): void {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; env_start is field 50, env_end 51.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[47]);
  const end = Number(fields[48]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start)
    throw new Error('/proc/self/stat gave no environment block');
  const fd = openSync('/proc/self/mem', 'r+');
  try {
    const block = Buffer.alloc(end - start);
    readSync(fd, block, 0, block.length, start);
    for (let entry = 0; entry < block.length;) {
      const next = block.indexOf(0, entry);
      const stop = next === -1 ? block.length : next;
      const equals = block.indexOf(0x3d, entry);
      if (equals !== -1 && equals < stop && names.includes(block.toString('latin1', entry, equals))) {
        writeSync(fd, Buffer.alloc(stop - equals - 1, '*'), 0, stop - equals - 1, start + equals + 1);
      }
      entry = stop + 1;
    }
  } finally {
    closeSync(fd);
  }
}
