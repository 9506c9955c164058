/**
 * The variables a server declaration may use, expanded when the server starts, so tokens stay in
 * the environment and out of settings files: `${env:NAME}` (VS Code's form, everywhere),
 * `${workspaceFolder}` and `${userHome}`; in Claude Code's `.mcp.json` and in agent files also
 * `${NAME}` and `${NAME:-default}`, as Claude Code reads them. VS Code's `${input:…}` prompts have
 * no equivalent here and are refused with a hint.
 */

export interface VariableContext {
  env: Readonly<Record<string, string | undefined>>;
  workspaceFolder: string;
  userHome: string;
  /** Claude Code's bare `${NAME}` and `${NAME:-default}`. */
  bareNames: boolean;
}

export class MissingVariableError extends Error {
  override readonly name = 'MissingVariableError';
}

const VARIABLE = /\$\{([^}]*)\}/g;

/** `text` with its variables replaced; throws MissingVariableError naming the first that is not set. */
export function expandVariables(text: string, context: VariableContext): string {
  return text.replace(VARIABLE, (whole, inner: string) => {
    if (inner === 'workspaceFolder') return context.workspaceFolder;
    if (inner === 'userHome') return context.userHome;
    if (inner.startsWith('env:')) return required(inner.slice(4), context, whole);
    if (inner.startsWith('input:')) {
      throw new MissingVariableError(
        `${whole} is a VS Code input prompt, which is not asked here: put the value in an environment variable and write \${env:NAME}`,
      );
    }
    if (context.bareNames) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner);
      if (m) return context.env[m[1]!] || (m[2] ?? required(m[1]!, context, whole));
    }
    return whole;
  });
}

/** Expands every value of a record (env, headers). */
export function expandRecord(values: Readonly<Record<string, string>>, context: VariableContext): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, expandVariables(v, context)]));
}

function required(name: string, context: VariableContext, whole: string): string {
  const value = context.env[name];
  if (value === undefined || value === '')
    throw new MissingVariableError(`${whole} is used but the environment variable ${name} is not set`);
  return value;
}
