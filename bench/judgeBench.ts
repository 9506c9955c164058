import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeCommand } from '../src/core/access/commands/judgeCommand';
import { formatMs, summarize } from './stats';

/** Command lines as agents write them: builds, tests, git, searches, pipes, redirections, chains. */
const TYPICAL = [
  'git status',
  'git diff --stat HEAD~1',
  'git log --oneline -20',
  'npm test',
  'npm run build && npm run lint',
  'npx vitest run test/unit/core',
  'ls -la src',
  'cat package.json | jq .scripts',
  'grep -rn "TODO" src --include=*.ts | head -20',
  'rg -n "export function" src/core',
  'find . -name "*.ts" -not -path "./node_modules/*" | wc -l',
  'cd src && ls *.ts',
  'mkdir -p build && cp README.md build/',
  'echo "done" > build/status.txt',
  'python3 -m pytest -q tests/',
  'cargo test --all 2>&1 | tail -30',
  'sed -n 1,40p src/index.ts',
  "sed -i 's/foo/bar/g' src/a.ts",
  'for f in src/*.ts; do wc -l "$f"; done',
  'tsc --noEmit -p tsconfig.json',
  'git add -A && git commit -m "wip"',
  'cat <<EOF > notes.md\nhello\nEOF',
  'echo {a,b,c}.txt',
  'node -e "console.log(1)"',
  'bash -c "npm test"',
];

/** `npm run bench`'s judge figures: each call of judgeCommand over 1,000 typical lines, after the parser has loaded. */
export async function judgeBench(): Promise<string[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'subagents-bench-judge-')));
  try {
    mkdirSync(join(root, 'src'));
    for (const name of ['index.ts', 'a.ts', 'b.ts']) writeFileSync(join(root, 'src', name), '');
    const policy = {
      mode: 'autoEdit' as const,
      root,
      autoApprove: ['git status', 'git diff', 'git log', 'npm test', 'ls', 'cat', 'grep', 'rg', 'find', 'wc'],
    };
    const loadStart = performance.now();
    await judgeCommand('true', policy);
    const load = performance.now() - loadStart;
    const samples: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const line = TYPICAL[i % TYPICAL.length]!;
      const start = performance.now();
      await judgeCommand(line, policy);
      samples.push(performance.now() - start);
    }
    return [
      `Command judge: first call (loads tree-sitter and the bash grammar) ${load.toFixed(1)} ms; then per line ${formatMs(summarize(samples))} over 1,000 typical lines`,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
