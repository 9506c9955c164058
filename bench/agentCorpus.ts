import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadWorkspaceProfiles } from '../src/core/config/profiles/workspaceProfiles';
import type { ProfileProblem } from '../src/core/config/profiles/profileProblem';
import type { ModelAvailability } from '../src/core/models/modelAliases';
import { formatMs, summarize } from './stats';

/**
 * `npm run bench -- --corpus DIR`: reads a folder of real agent files (a MANIFEST.tsv naming each
 * as claude/… or copilot/…) the way a user would meet them, one file per workspace, in
 * .claude/agents or .github/agents; prints the files accepted, the problems by kind and the notes
 * by kind. The files are read from DIR and never copied into this repository.
 */

const NO_KEYS: ModelAvailability = { hasKey: () => false, keyHint: (p) => `${p.toUpperCase()}_API_KEY` };
const ALL_KEYS: ModelAvailability = { hasKey: () => true, keyHint: () => '' };

export function agentCorpus(dir: string): void {
  const manifest = readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[0]!);
  let accepted = 0;
  let withModelKeys = 0;
  const errors = new Map<string, number>();
  const notes = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const refused: string[] = [];
  const root = mkdtempSync(join(tmpdir(), 'corpus-'));
  try {
    for (const [i, file] of manifest.entries()) {
      const ws = join(root, String(i));
      const target = file.startsWith('copilot/') ? '.github/agents' : '.claude/agents';
      mkdirSync(join(ws, target), { recursive: true });
      writeFileSync(join(ws, target, basename(file)), readFileSync(join(dir, file)));
      for (const [models, count] of [
        [NO_KEYS, true],
        [ALL_KEYS, false],
      ] as const) {
        const set = loadWorkspaceProfiles({ root: ws, trusted: true, models });
        const ok = [...set.profiles.values()].some((p) => p.source.startsWith(target));
        const problems: ProfileProblem[] = set.problems;
        if (!count) {
          if (ok && [...set.profiles.values()].some((p) => p.source.startsWith(target) && p.model)) withModelKeys++;
          continue;
        }
        if (ok) accepted++;
        else
          refused.push(
            `${file}: ${problems
              .filter((p) => p.severity === 'error')
              .map((p) => p.code)
              .join(', ')}`,
          );
        for (const p of problems)
          bump(p.severity === 'error' ? errors : notes, p.severity === 'error' ? p.code : `${p.code} (${p.severity})`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const sorted = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `  ${String(v).padStart(5)}  ${k}`)
      .join('\n') || '  (none)';
  console.log(`Agent corpus ${dir}: ${manifest.length} files, ${accepted} accepted as profiles (${manifest.length - accepted} refused)`);
  console.log(
    `Profiles with a model of their own when every provider has a key: ${withModelKeys} (without keys they inherit, with a note)`,
  );
  console.log(`Problems that keep a file out, by kind:\n${sorted(errors)}`);
  console.log(`Warnings and notes, by kind:\n${sorted(notes)}`);
  if (refused.length) console.log(`Refused:\n${refused.map((r) => `  ${r}`).join('\n')}`);
  wholeCorpus(dir, manifest);
}

/** All files in one workspace, as someone who copied every collection in would have it. */
function wholeCorpus(dir: string, manifest: readonly string[]): void {
  const ws = mkdtempSync(join(tmpdir(), 'corpus-all-'));
  try {
    for (const file of manifest) {
      const [kind, repo] = file.split('/');
      const target =
        kind === 'copilot' ? join(ws, '.github/agents', basename(file)) : join(ws, '.claude/agents', `${repo}--${basename(file)}`);
      mkdirSync(join(target, '..'), { recursive: true });
      writeFileSync(target, readFileSync(join(dir, file)));
    }
    const times: number[] = [];
    let set = loadWorkspaceProfiles({ root: ws, trusted: true, models: NO_KEYS });
    for (let i = 0; i < 15; i++) {
      const start = performance.now();
      set = loadWorkspaceProfiles({ root: ws, trusted: true, models: NO_KEYS });
      times.push(performance.now() - start);
    }
    const count = (code: string) => set.problems.filter((p) => p.code === code).length;
    console.log(
      `All ${manifest.length} files in one workspace: ${set.profiles.size} profiles (2 built-in), ${count('duplicate')} duplicate ids (the first in sort order wins), ` +
        `${count('agent-missing')} "agents" entries naming no agent, ${count('delegation-cycle')} in delegation circles; listed in ${formatMs(summarize(times))} over 15 runs`,
    );
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}
