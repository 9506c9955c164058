#!/usr/bin/env node
// `npm run screenshots`: the README's screenshots (media/screenshot-{dark,light,high-contrast,300px}.png),
// taken in a real VS Code (code-server) on the demo workspace by test/e2e/screenshots/readmeShots.ts,
// and only when asked: `npm test` never writes them (that file is outside the e2e project).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync('npx', ['vitest', 'run', '--config', 'test/e2e/screenshots/vitest.config.mts'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
