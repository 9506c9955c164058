// The project's postinstall: after a plain `npm ci` or `npm install`, one line that says which
// packages ask for a newer Node than this one, and which Node runs what. The project's .npmrc sets
// loglevel=error, which leaves out npm's EBADENGINE warnings (five lines per package, about
// fifty-five on Node 20) along with its other warnings; this line is what is left of them. The
// check is npm's own (npm-install-checks: semver.satisfies with prereleases included), over the
// packages of package-lock.json.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { engineSummary } from './npmInstall.mjs';

/**
 * The packages of a lockfile (v2/v3 `packages`) whose `engines.node` this Node does not satisfy,
 * each name once, in the lockfile's order. The root entry ("") is the project itself.
 */
export function packagesAskingNewerNode(lock, nodeVersion, satisfies) {
  const wanted = new Map();
  for (const [key, entry] of Object.entries(lock?.packages ?? {})) {
    const range = entry?.engines?.node;
    if (key === '' || entry.link || typeof range !== 'string') continue;
    // A key is the package's folder: `node_modules/a/node_modules/@s/b`, or a linked folder (`../dep`).
    const at = key.lastIndexOf('node_modules/');
    const name = entry.name ?? (at === -1 ? key : key.slice(at + 'node_modules/'.length));
    if (!wanted.has(name) && !satisfies(nodeVersion, range)) wanted.set(name, range);
  }
  return [...wanted.entries()].map(([name, node]) => ({ name, node }));
}

/**
 * semver.satisfies as npm checks engines: npm's own copy (npm runs this script with npm_execpath
 * set to its npm-cli.js), else the project's; undefined when neither can be loaded.
 */
function npmSatisfies(root) {
  for (const from of [process.env.npm_execpath, join(root, 'package.json')]) {
    if (!from) continue;
    try {
      const semver = createRequire(from)('semver');
      return (version, range) => semver.satisfies(version, range, { includePrerelease: true });
    } catch {
      // Not there: the next place.
    }
  }
  return undefined;
}

/** The line to say after an install in `root`, or why it cannot be said; undefined when every package is content. */
export function engineNotice(root, nodeVersion = process.version) {
  let lock;
  try {
    lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  } catch (error) {
    return `npm: could not read package-lock.json to check which Node its packages ask for (${error.message}).`;
  }
  const satisfies = npmSatisfies(root);
  if (!satisfies) return "npm: could not load semver (npm's or the project's) to check which Node the packages ask for.";
  return engineSummary(packagesAskingNewerNode(lock, nodeVersion, satisfies), nodeVersion);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // npm runs a root lifecycle script in the project's folder.
  const notice = engineNotice(process.cwd());
  if (notice) process.stderr.write(`${notice}\n`);
}
