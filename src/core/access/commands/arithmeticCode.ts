import type { Node } from '@vscode/tree-sitter-wasm';

/**
 * Code that bash runs where no command is written: arithmetic (`$(( ))`, `(( ))`, `[[ x -eq y ]]`,
 * an array subscript, `[[ -v name ]]`) evaluates a value such as `a[$(cmd)]` as an array element,
 * and expands the `$(cmd)` in its subscript. So arithmetic that holds a command's output, a quoted
 * string with `$` or a backquote, or a variable this line may have set, can run any command
 * (`[[ $(cat f) -eq 1 ]]` runs what f says). Plain numbers and the user's own variables cannot.
 */
export function arithmeticCode(root: Node): string | undefined {
  const setsVariables = linesSetsVariables(root);
  for (const context of arithmeticContexts(root)) {
    const why = hiddenIn(context, setsVariables);
    if (why) return `bash evaluates \`${clip(context.text)}\` as arithmetic, where ${why} can hold an array subscript that runs commands`;
  }
  return undefined;
}

const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/** Builtins that set shell variables from their words or input. */
const VARIABLE_SETTERS = new Set([
  'read',
  'mapfile',
  'readarray',
  'getopts',
  'printf',
  'let',
  'eval',
  'source',
  '.',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
]);

function arithmeticContexts(root: Node): Node[] {
  const out: Node[] = [];
  for (const node of root.descendantsOfType([
    'arithmetic_expansion',
    'subscript',
    'c_style_for_statement',
    'binary_expression',
    'unary_expression',
  ])) {
    if (!node) continue;
    if (node.type === 'arithmetic_expansion' || node.type === 'c_style_for_statement') out.push(node);
    else if (node.type === 'subscript') {
      const index = node.childForFieldName('index');
      if (index) out.push(index);
    } else if (insideTest(node)) {
      const operator = node.childForFieldName('operator')?.text;
      if (node.type === 'binary_expression' && operator && ARITHMETIC_TESTS.has(operator)) {
        for (const side of ['left', 'right']) {
          const operand = node.childForFieldName(side);
          if (operand) out.push(operand);
        }
      }
      if (node.type === 'unary_expression' && operator === '-v') out.push(node);
    }
  }
  return out;
}

function insideTest(node: Node): boolean {
  for (let up = node.parent; up; up = up.parent) if (up.type === 'test_command') return true;
  return false;
}

/** What in this arithmetic can carry a subscript with code, or undefined. */
function hiddenIn(context: Node, setsVariables: boolean): string | undefined {
  const all = [
    context,
    ...context.descendantsOfType([
      'command_substitution',
      'process_substitution',
      'raw_string',
      'string',
      'ansi_c_string',
      'simple_expansion',
      'expansion',
      'variable_name',
      'word',
    ]),
  ];
  for (const node of all) {
    if (!node) continue;
    if (node.type === 'command_substitution' || node.type === 'process_substitution') return "a command's output";
    if ((node.type === 'raw_string' || node.type === 'string' || node.type === 'ansi_c_string') && /[$`]/.test(node.text))
      return 'a quoted string with `$`';
    if (!setsVariables) continue;
    if (node.type === 'simple_expansion' || node.type === 'expansion' || node.type === 'variable_name')
      return 'a variable set on this line';
    // In arithmetic a bare name is a variable (`$(( x ))`, `(( i++ ))`).
    if (node.type === 'word' && /^[A-Za-z_]/.test(node.text)) return 'a variable set on this line';
  }
  return undefined;
}

/** Whether the line may set a shell variable before arithmetic reads it. */
function linesSetsVariables(root: Node): boolean {
  for (const node of root.descendantsOfType(['variable_assignment', 'for_statement', 'declaration_command', 'command_name'])) {
    if (!node) continue;
    if (node.type === 'variable_assignment') {
      // `for ((i = 0; …))` starts a counter from a number, as does `i=0`.
      if (node.childForFieldName('value')?.type !== 'number') return true;
    } else if (node.type === 'command_name') {
      if (VARIABLE_SETTERS.has(node.text)) return true;
    } else return true;
  }
  return false;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
