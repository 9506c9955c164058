import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { bundleOptions } from '../../../../scripts/bundles.mjs';

/** Builds test/fixtures/storeProcess.ts with the CLI's bundle options; returns the script's path. */
export async function buildStoreProcess(): Promise<string> {
  const outdir = await mkdtemp(join(tmpdir(), 'store-process-'));
  const { banner: _banner, ...script } = bundleOptions().cli;
  await esbuild.build({
    ...script,
    outdir,
    sourcemap: false,
    logLevel: 'error',
    entryPoints: { storeProcess: 'test/fixtures/storeProcess.ts' },
  });
  return join(outdir, 'storeProcess.js');
}

export interface StoreProcess {
  /** Resolves with the exit code (null when killed) and what it printed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Resolves when it has printed this line. */
  said(line: string): Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

export function startStoreProcess(script: string, args: string[], env: NodeJS.ProcessEnv = {}): StoreProcess {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  const waiters: { line: string; resolve: () => void }[] = [];
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const w of [...waiters]) if (stdout.split('\n').includes(w.line)) w.resolve();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    exited,
    said: (line) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.split('\n').includes(line)) return resolve();
        waiters.push({ line, resolve });
        void exited.then((r) => reject(new Error(`the store process ended (${r.code ?? r.signal}) before saying "${line}": ${r.stderr}`)));
      }),
    kill: (signal) => child.kill(signal),
  };
}
