import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleOptions } from '../../../scripts/bundles.mjs';
import { vscodeStandInSource } from '../../../scripts/vscodeStandIn.mjs';

// Without the OS sandbox a command runs as the user and can read /proc/<pid>/environ of the
// extension host, which shows the environment the host started with. dist/extension.js, built
// from the sources, is activated in a fresh node process as the extension host does (vscode is a
// stand-in); the keys it was started with must leave that file, while process.env keeps them for
// the other extensions of the host, and every other variable stays byte for byte.
vi.setConfig({ testTimeout: 90_000 });

const KEYS = {
  OPENAI_API_KEY: 'sk-host-leak-openai-4f1c',
  ANTHROPIC_API_KEY: 'sk-host-leak-anthropic-9d2e',
  SUBAGENTS_API_KEY: 'sk-host-leak-ours-77aa',
};
// Another extension's variables, one named almost like ours: untouched.
const OTHERS = { OTHER_EXTENSION_TOKEN: 'tok-other-1234', ANTHROPIC_API_KEY_HELPER: 'helper-value-5678' };
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'host-keys-'));
  await build({ ...bundleOptions({ production: true }).extension, outdir: dir, logLevel: 'error' });
  await writeFile(
    join(dir, 'host.js'),
    `${vscodeStandInSource(process.cwd())}
require('./extension.js').activate(require('vscode').window); // the stand-in answers every property, as a context does
const names = ${JSON.stringify([...Object.keys(KEYS), ...Object.keys(OTHERS)])};
process.stdout.write(JSON.stringify(Object.fromEntries(names.map((n) => [n, process.env[n]]))) + '\\n');
process.stdin.on('end', () => process.exit(0)).resume();
`,
  );
}, 90_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function environEntries(text: string): Map<string, string> {
  return new Map(
    text
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

describe('the API keys the extension host was started with', () => {
  it.skipIf(process.platform !== 'linux')(
    'leave /proc/<host pid>/environ at activation (same length, only their values), and process.env keeps them',
    async () => {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...KEYS, ...OTHERS };
      const host = spawn(process.execPath, [join(dir, 'host.js')], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      host.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const seen = await new Promise<string>((resolve, reject) => {
        let out = '';
        host.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out);
        });
        host.on('exit', (code) => reject(new Error(`the host ended (${code}) before it activated: ${stderr}`)));
      });
      try {
        // What the host's own code (ours and other extensions') reads: unchanged.
        expect(JSON.parse(seen)).toEqual({ ...KEYS, ...OTHERS });
        const raw = await readFile(`/proc/${host.pid}/environ`, 'latin1');
        for (const value of Object.values(KEYS)) expect(raw).not.toContain(value);
        const environ = environEntries(raw);
        for (const [name, value] of Object.entries(KEYS)) expect(environ.get(name)).toBe('*'.repeat(value.length));
        for (const [name, value] of Object.entries({ ...OTHERS, HOME: dir })) expect(environ.get(name)).toBe(value);
      } finally {
        host.stdin.end();
        await new Promise((resolve) => host.on('close', resolve));
      }
    },
  );
});
