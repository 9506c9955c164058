import type * as ChildProcessModule from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/**
 * The launcher process's whole program, run as `node -e` (launcherSource): it imports nothing of
 * ours, so it stays a small node process (tens of MB) that starts processes for a large one without
 * that one being forked. It reads requests (launcherFrames.ts) on stdin and writes frames on
 * stdout; when stdin ends (its parent shut it down, or died) or on SIGTERM it kills what it started
 * and exits.
 * The requests come from the process that started it, over its own pipe: they are checked for
 * shape (a bad one is dropped, and said on stderr), not trusted as an outside input would need.
 */
function launcherMain(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require('node:child_process') as typeof ChildProcessModule;
  const FRAME = { spawned: 1, stdout: 2, stderr: 3, exit: 4, close: 5, error: 6 };
  const children = new Map<number, ChildProcess>();
  const write = (kind: number, id: number, payload: Buffer) => {
    const header = Buffer.alloc(9);
    header[0] = kind;
    header.writeUInt32BE(id, 1);
    header.writeUInt32BE(payload.length, 5);
    process.stdout.write(Buffer.concat([header, payload]));
  };
  const json = (kind: number, id: number, value: unknown) => write(kind, id, Buffer.from(JSON.stringify(value)));
  const signalGroup = (child: ChildProcess | undefined, signal: string) => {
    try {
      if (child?.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  const isText = (v: unknown): v is string => typeof v === 'string';
  const start = (id: number, r: Record<string, unknown>) => {
    const { file, args, cwd, env, input } = r;
    const envOk = typeof env === 'object' && env !== null && Object.values(env).every(isText);
    if (!isText(file) || !Array.isArray(args) || !args.every(isText) || !isText(cwd) || !envOk || (input !== undefined && !isText(input))) {
      json(FRAME.error, id, { message: 'the launcher got a start request it cannot read' });
      json(FRAME.close, id, {});
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(file, args, {
        cwd,
        env: env as Record<string, string>,
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (error) {
      json(FRAME.error, id, { message: (error as Error).message });
      json(FRAME.close, id, {});
      return;
    }
    children.set(id, child);
    if (child.pid !== undefined) json(FRAME.spawned, id, { pid: child.pid });
    child.stdout?.on('data', (chunk: Buffer) => write(FRAME.stdout, id, chunk));
    child.stderr?.on('data', (chunk: Buffer) => write(FRAME.stderr, id, chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      json(FRAME.error, id, { message: error.message, ...(error.code ? { code: error.code } : {}) }),
    );
    child.on('exit', (code) => json(FRAME.exit, id, { code }));
    child.on('close', () => {
      children.delete(id);
      json(FRAME.close, id, {});
    });
    if (input !== undefined) {
      child.stdin?.on('error', () => {}); // it may exit before it reads all of its input
      child.stdin?.end(Buffer.from(input, 'base64'));
    }
  };
  const handle = (line: string) => {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      process.stderr.write('launcher: a request that is not JSON\n');
      return;
    }
    const id = r.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) return void process.stderr.write('launcher: a request without an id\n');
    if (r.op === 'start') start(id, r);
    else if (r.op === 'signal' && isText(r.signal)) signalGroup(children.get(id), r.signal);
    else if (r.op === 'closePipes') {
      children.get(id)?.stdout?.destroy();
      children.get(id)?.stderr?.destroy();
    } else process.stderr.write('launcher: a request it does not know\n');
  };
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (text: string) => {
    pending += text;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      handle(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  });
  // Its parent is done with it, or its group is stopped: nothing it started (each in a group of its own) may outlive it.
  const end = () => {
    for (const child of children.values()) signalGroup(child, 'SIGKILL');
    process.exit(0);
  };
  process.stdin.on('end', end);
  process.on('SIGTERM', end);
  // Ctrl+C in the CLI's terminal reaches its whole group: the CLI decides what stops, as it does for what it starts directly.
  process.on('SIGINT', () => {});
  // The parent went away while a frame was being written: the end of stdin follows.
  process.stdout.on('error', () => {});
}

/** The launcher's program, for `node -e`. */
export function launcherSource(): string {
  return `(${launcherMain.toString()})();\n`;
}
