import { homedir } from 'node:os';
import { arithmeticCode } from './arithmeticCode';
import { known, type Arg } from './args';
import { commandEffects, type Effects } from './commandEffects';
import type { BashParser } from './treeSitterBash';
import { walkCommandLine, type CommandFacts, type Cwd } from './walkCommandLine';

/** A simple command of the line, unwrapped: the command that really runs and what it does. */
export interface JudgedCommand {
  facts: CommandFacts;
  /** The command that runs in the end (`env A=1 xargs rm` → `rm <input>`). */
  argv: Arg[];
  effects: Effects;
  /** The wrappers it was run through, outermost first (`env`, `xargs`). */
  wrappers: string[];
  /** Shell code (`bash -c`, `eval`) whose commands are judged after this one. */
  nested: boolean;
}

export type Analysis = { ok: true; commands: JudgedCommand[] } | { ok: false; reason: string };

/** Shell code inside shell code inside…: past this depth the line is not judged. */
const MAX_NESTING = 4;
const MAX_WRAPPERS = 8;

let parser: Promise<BashParser> | undefined;

/** The bash parser, loaded once on first use (its own bundle: WebAssembly, about 1.6 MB). */
export function bashParser(): Promise<BashParser> {
  parser ??= import('./treeSitterBash').then((m) => m.loadBashParser());
  return parser;
}

/**
 * Parses a command line with tree-sitter's bash grammar and lists every command it runs, each
 * with its words expanded, its folder, and its effects; the code given to `bash -c`, `eval` and
 * the like is parsed and listed too. A line with a syntax error is not analysed.
 */
export async function analyzeCommandLine(line: string, start: Cwd, home = homedir()): Promise<Analysis> {
  const commands: JudgedCommand[] = [];
  const failure = await analyzeInto(line, start, home, 0, commands);
  return failure ? { ok: false, reason: failure } : { ok: true, commands };
}

async function analyzeInto(line: string, start: Cwd, home: string, depth: number, out: JudgedCommand[]): Promise<string | undefined> {
  if (depth > MAX_NESTING) return 'it nests shell code more than four levels deep';
  const tree = (await bashParser()).parse(line);
  try {
    if (tree.rootNode.hasError) return syntaxError(tree.rootNode);
    const hidden = arithmeticCode(tree.rootNode);
    if (hidden) {
      const facts: CommandFacts = { text: tree.rootNode.text, argv: [], assignments: [], redirects: [], cwd: start };
      out.push({
        facts,
        argv: [],
        effects: { writes: [], linkSources: [], readsOnly: false, launcher: false, opaque: hidden },
        wrappers: [],
        nested: depth > 0,
      });
    }
    const facts = await walkCommandLine(tree.rootNode, start, { home });
    for (const f of facts) {
      let argv = f.argv;
      let effects = commandEffects(argv);
      const wrappers: string[] = [];
      // What the wrappers do themselves (`time -o f`, `env -u X`) stays with the command they run.
      const carried = { writes: [] as Arg[], sets: [] as string[], opaque: undefined as string | undefined };
      while (effects.inner && wrappers.length < MAX_WRAPPERS) {
        const head = argv[0];
        wrappers.push(known(head) ? head.value : '?');
        carried.writes.push(...effects.writes);
        carried.sets.push(...(effects.sets ?? []));
        carried.opaque ??= effects.opaque;
        argv = effects.inner;
        effects = argv.length ? commandEffects(argv) : { writes: [], linkSources: [], readsOnly: true, launcher: false };
      }
      if (wrappers.length) effects = withCarried(effects, carried);
      const judged: JudgedCommand = { facts: f, argv, effects, wrappers, nested: depth > 0 };
      out.push(judged);
      if (effects.script) {
        if (!known(effects.script)) {
          judged.effects = { ...effects, opaque: `it runs shell code that ${effects.script.why}` };
          continue;
        }
        const failure = await analyzeInto(effects.script.value, f.cwd, home, depth + 1, out);
        if (failure) return `the shell code it runs (${clip(effects.script.value)}) cannot be judged: ${failure}`;
      }
    }
    return undefined;
  } finally {
    tree.delete();
  }
}

function withCarried(effects: Effects, carried: { writes: Arg[]; sets: string[]; opaque: string | undefined }): Effects {
  const sets = [...carried.sets, ...(effects.sets ?? [])];
  return {
    ...effects,
    writes: [...carried.writes, ...effects.writes],
    readsOnly: effects.readsOnly && carried.writes.length === 0,
    ...(sets.length ? { sets } : {}),
    ...((effects.opaque ?? carried.opaque) ? { opaque: effects.opaque ?? carried.opaque } : {}),
  };
}

/** Where tree-sitter found the first error, in words. */
function syntaxError(root: { descendantsOfType(type: string): ({ startIndex: number; text: string } | null)[]; text: string }): string {
  const error = root.descendantsOfType('ERROR')[0] ?? root.descendantsOfType('MISSING')[0];
  if (!error) return 'it has a syntax error (an unclosed quote, bracket or here-document?)';
  const at = error.startIndex;
  const near = root.text.slice(at, at + 20).replace(/\n/g, '\\n');
  if (/^<<-?\s*['"]?\w/.test(root.text.slice(at)) || /<<\S*$/.test(root.text.slice(0, at + near.length)))
    return 'it has a here-document without its end';
  return `it has a syntax error near ${near ? `"${near}"` : 'the end'} (an unclosed quote, bracket or here-document?)`;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
