// `npm ci` for `npm test` and `npm run demo`, with npm's EBADENGINE warnings said once. The ai SDK
// (`ai`, `@ai-sdk/*`) and @vscode/vsce declare Node >= 22; on Node 20 npm prints a five-line
// warning for each (about fifty lines) that reads like a failure. They build and run on Node 20,
// so those lines are replaced by one that says which Node runs what. Every other line of npm's
// goes through as it is.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// npm colours its prefix when asked to (color=always).
const ANSI = /\x1b\[[0-9;]*m/g;
const ENGINE_WARNING = /^npm (?:warn|WARN) EBADENGINE\b(.*)$/;

/** Reads npm's stderr line by line: keeps what is not an EBADENGINE warning, and notes the packages those name. */
export function engineWarnings() {
  /** package name (without its version) -> the Node it asks for */
  const wanted = new Map();
  let pkg;
  return {
    /** The line to show, or undefined when it is part of an EBADENGINE warning. */
    line(raw) {
      const match = ENGINE_WARNING.exec(raw.replace(ANSI, ''));
      if (!match) return raw;
      const body = match[1];
      const named = /package: '([^']+)'/.exec(body);
      if (named) pkg = named[1].replace(/(.)@[^@]*$/, '$1');
      const required = /required: \{[^}]*\bnode: '([^']+)'/.exec(body);
      if (required && pkg) wanted.set(pkg, required[1].replace(/\s+/g, ''));
      return undefined;
    },
    /** The packages the warnings named, each once. */
    packages() {
      return [...wanted.entries()].map(([name, node]) => ({ name, node }));
    },
    /** The one line said instead; undefined when npm warned of no engine. */
    summary(nodeVersion) {
      return engineSummary(
        [...wanted.entries()].map(([name, node]) => ({ name, node })),
        nodeVersion,
      );
    },
  };
}

/**
 * The one line that says which packages ask for a newer Node and which Node runs what: said by
 * runNpm in place of npm's warnings, and by scripts/engineNotice.mjs after a plain `npm ci`
 * (whose warnings the project's .npmrc turns off). Undefined when no package asks.
 */
export function engineSummary(packages, nodeVersion) {
  if (packages.length === 0) return undefined;
  const names = packages.map((p) => p.name);
  const shown = names.length > 6 ? `${names.slice(0, 6).join(', ')} and ${names.length - 6} more` : names.join(', ');
  const ranges = [...new Set(packages.map((p) => p.node.replace(/\s+/g, '')))].join(' or ');
  return (
    `npm: ${names.length} package${names.length === 1 ? '' : 's'} (${shown}) ask${names.length === 1 ? 's' : ''} for Node ${ranges}; ` +
    `this is Node ${nodeVersion}, on which they build and run (npm's warnings about it are left out). ` +
    `The extension runs on VS Code's own Node (22 from VS Code 1.101), the CLI and the unit tests on Node 20 or later, ` +
    `and the e2e tests on the Node 24 that scripts/setup-e2e.sh installs.`
  );
}

/**
 * Runs npm with `args` in `cwd`, its stdout as it is and its stderr through `engineWarnings`;
 * resolves to npm's exit code once the summary (if any) is written to `err`.
 */
export function runNpm(args, { cwd, out = process.stdout, err = process.stderr, nodeVersion = process.version } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, stdio: ['inherit', 'pipe', 'pipe'] });
    const warnings = engineWarnings();
    child.stdout.pipe(out, { end: false });
    const lines = createInterface({ input: child.stderr, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const shown = warnings.line(line);
      if (shown !== undefined) err.write(`${shown}\n`);
    });
    const closed = new Promise((done) => lines.once('close', done));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      void closed.then(() => {
        const summary = warnings.summary(nodeVersion);
        if (summary) err.write(`${summary}\n`);
        resolve(code ?? (signal ? 1 : 0));
      });
    });
  });
}
