import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** A named pipe outside the workspace (Node has no mkfifo): two commands meet on it. */
export async function mkfifo(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}
