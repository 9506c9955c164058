import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { API_KEY_PROVIDERS, KEY_VARIABLES } from '../../models/keyVariables';

/**
 * The CLI's API keys, taken out of its environment at start-up: a command run without the OS
 * sandbox, as the same user, can read `/proc/<our pid>/environ`, and that file shows the
 * environment the process started with whatever process.env says later. So the keys are read,
 * deleted from process.env (nothing this process starts inherits them), and their bytes in the
 * start-up environment block are overwritten through /proc/self/mem (Linux). The extension host
 * (hideKeysFromProc) blanks the same bytes but keeps process.env as it was: that environment is
 * shared with every other extension of the window, and one that reads ANTHROPIC_API_KEY itself
 * must go on finding it.
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

/**
 * The extension host's keys out of `/proc/<pid>/environ`, process.env unchanged: each value is set
 * again (the C library copies it to the heap, where process.env then reads it) before its bytes
 * in the start-up block are overwritten. Only our variables' values change, at their own length,
 * so every other variable (other extensions', VS Code's) stays as it was. Says why not, if not.
 */
export function hideKeysFromProc(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const values = new Map(API_KEY_PROVIDERS.flatMap((p) => (env[KEY_VARIABLES[p]] ? [[KEY_VARIABLES[p], env[KEY_VARIABLES[p]]!]] : [])));
  if (!values.size || process.platform !== 'linux') return undefined;
  for (const [name, value] of values) {
    delete env[name];
    env[name] = value;
  }
  const names = [...values.keys()];
  let problem: string | undefined;
  try {
    overwriteStartupValues(names);
  } catch (error) {
    problem = `could not clear ${names.join(', ')} from this process's start-up environment (${error instanceof Error ? error.message : String(error)}), so a command run without the sandbox could read them from /proc`;
  }
  // Had the C library kept pointing into the block, the value now reads as stars: put it back (a heap copy).
  for (const [name, value] of values) if (env[name] !== value) env[name] = value;
  return problem;
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
