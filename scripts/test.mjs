#!/usr/bin/env node
// `npm test`: everything, from a fresh clone. Installs what is missing (node_modules; Chromium and
// code-server via scripts/setup-e2e.sh), then typecheck, lint, the production build and the .vsix,
// then every vitest project (unit, webview, field, e2e). Output streams; the first failure stops it.
// The field project needs ../shared/field beside the clone, python3, and the npm registry.
// Extra arguments go to vitest, e.g. `npm test -- --project unit`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runNpm } from './npmInstall.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function step(title, command, args) {
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
  const t = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) {
    console.error(`\n✘ ${title} could not start: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) {
    console.error(`\n✘ ${title} failed (${result.status ?? result.signal}) after ${seconds(t)}; npm test stops here.`);
    process.exit(result.status || 1);
  }
  console.log(`=== ${title}: ok (${seconds(t)})`);
}

// node_modules/.package-lock.json is written by every complete npm install.
if (!existsSync(`${root}/node_modules/.package-lock.json`)) {
  // Through runNpm: on Node 20, npm's fifty lines of engine warnings become one that says which Node runs what.
  console.log('\n=== install dependencies: npm ci --no-audit --no-fund');
  const t = Date.now();
  const status = await runNpm(['ci', '--no-audit', '--no-fund'], { cwd: root });
  if (status !== 0) {
    console.error(`\n✘ install dependencies failed (${status}) after ${seconds(t)}; npm test stops here.`);
    process.exit(status);
  }
  console.log(`=== install dependencies: ok (${seconds(t)})`);
}
step('e2e prerequisites', 'bash', ['scripts/setup-e2e.sh']);
step('typecheck', 'npm', ['run', 'typecheck']);
step('lint', 'npm', ['run', 'lint']);
step('package', 'npm', ['run', 'package']);
step('tests', 'npx', ['vitest', 'run', ...process.argv.slice(2)]);
console.log(`\nnpm test: all green in ${seconds(started)}`);
