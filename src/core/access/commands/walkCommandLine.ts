import { stat } from 'node:fs/promises';
import type { Node } from '@vscode/tree-sitter-wasm';
import type { Arg } from './args';
import { expandWord } from './expandWord';
import { logicalPath, physicalPath } from './physicalPath';
import { wordPieces } from './wordPieces';

/** A folder a command may run in: as `cd` spells it (for its `..`) and as the disk has it. */
export interface Place {
  logical: string;
  physical: string;
}

/** Where a command runs: one of these folders, or a folder known only when it runs. */
export type Cwd = { known: Place[] } | { unknown: string };

export interface Redirect {
  op: string;
  target: Arg;
  /** It opens a file for writing (not `<`, `2>&1` or `>&-`). */
  writes: boolean;
  /** It opens a file for reading (`< f`, `<> f`): the file is read as surely as one named as an argument. */
  reads: boolean;
}

/** One simple command of a line, its words expanded as bash would, with where it runs. */
export interface CommandFacts {
  /** As written, for messages. */
  text: string;
  /** The command and its arguments, without leading assignments. */
  argv: Arg[];
  /** `NAME=value` words before the command (or alone, setting a shell variable). */
  assignments: string[];
  redirects: Redirect[];
  cwd: Cwd;
}

export interface WalkContext {
  home: string;
}

const WRITE_OPS = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);

/**
 * Walks a command line's syntax tree in the order bash runs it and lists every simple command in
 * it, those inside substitutions, subshells, loops, conditionals and functions included. `cd` and
 * `pushd` move the folder of the commands after them (a subshell's, a pipeline part's and a
 * substitution's moves stay inside them); a function's body runs wherever it is called, so its
 * folder is unknown.
 */
export async function walkCommandLine(root: Node, start: Cwd, context: WalkContext): Promise<CommandFacts[]> {
  const out: CommandFacts[] = [];
  const scope = { cwd: start };
  await new Walker(context, out).visit(root, scope, []);
  return out;
}

interface Scope {
  cwd: Cwd;
}

class Walker {
  constructor(
    private readonly context: WalkContext,
    private readonly out: CommandFacts[],
  ) {}

  async visit(node: Node, scope: Scope, trailing: Node[]): Promise<void> {
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        return this.command(node, scope, trailing);
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const redirects = node.namedChildren.filter((c): c is Node => c !== null && c.id !== body?.id);
        if (!body) return this.pseudo(node, redirects, scope);
        return this.visit(body, scope, [...redirects, ...trailing]);
      }
      case 'list': {
        // tree-sitter puts `a && b > f`'s redirection on the list; in bash it is the last command's.
        const parts = node.namedChildren.filter((c): c is Node => c !== null);
        for (const [i, part] of parts.entries()) await this.visit(part, scope, i === parts.length - 1 ? trailing : []);
        return;
      }
      case 'pipeline':
      case 'subshell':
      case 'command_substitution':
      case 'process_substitution': {
        if (trailing.length) await this.pseudo(node, trailing, scope);
        for (const part of node.namedChildren) if (part) await this.visit(part, { cwd: scope.cwd }, []);
        return;
      }
      case 'function_definition': {
        const body = node.childForFieldName('body');
        if (body) await this.visit(body, { cwd: { unknown: "a function's body runs in the folder it is called from" } }, []);
        return;
      }
      case 'variable_assignment':
      case 'variable_assignments': {
        await this.substitutions(node, scope);
        this.out.push({ text: node.text, argv: [], assignments: [node.text], redirects: [], cwd: scope.cwd });
        return;
      }
      default: {
        // Control flow, declarations, tests: their redirections, then every command inside them.
        if (trailing.length) await this.pseudo(node, trailing, scope);
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (isWordNode(child)) await this.substitutions(child, scope);
          else await this.visit(child, scope, []);
        }
        if (node.type === 'declaration_command' || node.type === 'unset_command') {
          // Its words too: a name such as 'a[$(cmd)]' is evaluated (disguisedEffects.ts).
          const argv: Arg[] = [{ value: node.child(0)?.text ?? node.type }];
          for (const child of node.namedChildren) {
            if (child?.type === 'variable_assignment' || child?.type === 'variable_name') argv.push({ value: child.text });
            else if (child && isWordNode(child)) argv.push(...(await this.expand(child, scope)));
          }
          this.out.push({ text: node.text, argv, assignments: [], redirects: [], cwd: scope.cwd });
        }
      }
    }
  }

  /** Redirections of a compound command (`while …; done > f`): opened where it starts. */
  private async pseudo(node: Node, redirects: Node[], scope: Scope): Promise<void> {
    const facts: CommandFacts = { text: node.text, argv: [], assignments: [], redirects: [], cwd: scope.cwd };
    for (const r of redirects) await this.redirect(r, facts, scope);
    this.out.push(facts);
  }

  private async command(node: Node, scope: Scope, trailing: Node[]): Promise<void> {
    const facts: CommandFacts = { text: node.text, argv: [], assignments: [], redirects: [], cwd: scope.cwd };
    const words: Node[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') {
        await this.substitutions(child, scope);
        facts.assignments.push(child.text);
      } else if (child.type.endsWith('_redirect')) trailing = [child, ...trailing];
      else words.push(child);
    }
    for (const word of words) await this.substitutions(word, scope);
    for (const r of trailing) {
      const extra = await this.redirect(r, facts, scope);
      words.push(...extra);
    }
    for (const word of words) facts.argv.push(...(await this.expand(word, scope)));
    if (trailing.length) facts.text = `${node.text} ${trailing.map((r) => r.text).join(' ')}`;
    this.out.push(facts);
    await this.moveFolder(facts, scope);
  }

  /** Adds the redirection to `facts`; returns words tree-sitter hung on it that are the command's arguments. */
  private async redirect(node: Node, facts: CommandFacts, scope: Scope): Promise<Node[]> {
    await this.substitutions(node, scope);
    if (node.type === 'heredoc_redirect') {
      // `cat <<EOF > x`: the file redirection rides inside the here-document's node.
      const extra: Node[] = [];
      for (const inner of node.namedChildren)
        if (inner?.type === 'file_redirect') extra.push(...(await this.redirect(inner, facts, scope)));
      return extra;
    }
    if (node.type !== 'file_redirect') return [];
    const destinations = node.childrenForFieldName('destination').filter((c): c is Node => c !== null);
    const [target, ...extra] = destinations;
    if (!target) return [];
    const op = node.children.find((c) => c !== null && !c.isNamed)?.type ?? '>';
    const expanded = await this.expand(target, scope);
    const value: Arg =
      expanded.length === 1
        ? expanded[0]!
        : { unknown: target.text, variable: false, why: `${target.text} does not expand to one file name` };
    const fdTarget = 'value' in value && /^(\d+|-)$/.test(value.value);
    const writes = WRITE_OPS.has(op) || (op === '>&' && !fdTarget);
    const reads = op === '<' || op === '<>';
    facts.redirects.push({ op, target: value, writes: writes && !isDevice(value), reads: reads && !isDevice(value) });
    return extra;
  }

  /** The commands inside a word's `$(…)`, backticks and `<(…)`, which run before the command. */
  private async substitutions(node: Node, scope: Scope): Promise<void> {
    if (node.type === 'command_substitution' || node.type === 'process_substitution') return this.visit(node, scope, []);
    for (const child of node.namedChildren) if (child) await this.substitutions(child, scope);
  }

  private async expand(node: Node, scope: Scope): Promise<Arg[]> {
    const cwd = 'known' in scope.cwd && scope.cwd.known.length === 1 ? scope.cwd.known[0]!.physical : undefined;
    const result = await expandWord(wordPieces(node), { home: this.context.home, cwd });
    if (result.known) return result.values.map((value) => ({ value }));
    return [{ unknown: result.text, variable: result.variable, why: result.why }];
  }

  /** `cd` and `pushd` move the commands after them; a folder that does not exist yet may be made first. */
  private async moveFolder(facts: CommandFacts, scope: Scope): Promise<void> {
    const [name, ...args] = facts.argv;
    if (!name || !('value' in name)) return;
    if (name.value === 'popd') {
      scope.cwd = { unknown: 'popd returns to a folder known only when it runs' };
      return;
    }
    if (name.value !== 'cd' && name.value !== 'pushd') return;
    const physicalMode = args.some((a) => 'value' in a && a.value === '-P');
    const operand = args.find((a) => !('value' in a) || !a.value.startsWith('-') || a.value === '-');
    if (!operand || !('value' in operand)) {
      if (operand) scope.cwd = { unknown: `cd to ${operand.unknown}, a folder known only when it runs` };
      else scope.cwd = { known: [{ logical: this.context.home, physical: await physicalPath('/', this.context.home) }] };
      return;
    }
    if (operand.value === '-') {
      scope.cwd = { unknown: 'cd - returns to a folder known only when it runs' };
      return;
    }
    if (!('known' in scope.cwd)) return;
    const places: Place[] = [];
    for (const place of scope.cwd.known) {
      const logical = physicalMode ? await physicalPath(place.physical, operand.value) : logicalPath(place.logical, operand.value);
      places.push({ logical, physical: await physicalPath('/', logical) });
      // If the folder is not there (yet: the line may make it first), cd may fail and the next command runs here.
      if (!(await isFolder(logical))) places.push(place);
    }
    scope.cwd = { known: dedupe(places) };
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

function dedupe(places: Place[]): Place[] {
  const seen = new Map<string, Place>();
  for (const p of places) seen.set(`${p.logical}\0${p.physical}`, p);
  return [...seen.values()];
}

const WORD_TYPES = new Set([
  'word',
  'string',
  'raw_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'number',
  'ansi_c_string',
  'translated_string',
  'command_name',
  'arithmetic_expansion',
  'brace_expression',
  'variable_name',
  'test_operator',
]);

function isWordNode(node: Node): boolean {
  return WORD_TYPES.has(node.type);
}

function isDevice(target: Arg): boolean {
  return 'value' in target && /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(target.value);
}
