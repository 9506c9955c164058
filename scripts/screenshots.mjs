#!/usr/bin/env node
// `npm run screenshots`: the README's screenshot (media/screenshot.png), taken by the panel's
// end-to-end test in a real VS Code, and only when asked: `npm test` never writes it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync('npx', ['vitest', 'run', '--project', 'e2e', 'test/e2e/panel.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SUBAGENTS_SCREENSHOT: '1' },
});
process.exit(result.status ?? 1);
