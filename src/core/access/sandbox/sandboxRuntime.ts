import { spawn } from 'node:child_process';
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isInside } from '../../platform/files/isInside';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { linuxGetCwdMandatoryDenyPaths } from '@anthropic-ai/sandbox-runtime/dist/sandbox/linux-sandbox-utils.js';
import { removeStaleSandboxSockets } from './deadProcessLeftovers';
import { placeholderExcludes } from './placeholderExcludes';
import type { SandboxPolicy } from './sandboxPolicy';

/**
 * The OS sandbox over @anthropic-ai/sandbox-runtime (bubblewrap on Linux, Seatbelt on macOS).
 * A lazily loaded bundle of its own (dist/sandbox.js, see scripts/bundles.mjs): only the first
 * command an agent runs loads it. sandbox-runtime's manager is one per process, and so is this.
 */

export interface SandboxRuntime {
  /** Why commands cannot be sandboxed here, or undefined when they can. */
  readonly unavailable: string | undefined;
  /**
   * The shell command line that runs `command` in the sandbox of `policy`, and the git excludes
   * file that hides the placeholders of missing protected paths from git, if any appear.
   */
  wrap(command: string, policy: SandboxPolicy): Promise<{ line: string; gitExcludesFile?: string; placeholders: string[] }>;
  /**
   * After each wrapped command, with its policy's hosts: once none is left running, removes the
   * placeholders made for missing protected paths, and says so (true).
   */
  release(allowedHosts: readonly string[]): boolean;
  /**
   * Ends the sandbox's proxy (its processes, and its sockets in the temp folder). sandbox-runtime
   * does this itself only from an `exit` handler, where its async teardown never gets to the
   * sockets: every process that ran a sandboxed command left one behind.
   */
  stop(): Promise<void>;
}

function runtimeConfig(policy: SandboxPolicy): SandboxRuntimeConfig {
  return {
    network: { allowedDomains: policy.allowedHosts, deniedDomains: [] },
    filesystem: { denyRead: policy.denyRead, allowWrite: policy.allowWrite, denyWrite: policy.denyWrite },
  };
}

/** Runs `true` in the sandbox: what the dependency check cannot tell (user namespaces off, a missing capability). */
function probe(wrapped: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', wrapped], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (e) => resolve(e.message));
    child.on('close', (code) =>
      resolve(code === 0 ? undefined : stderr.trim().split('\n').pop() || `the test command exited with ${code}`),
    );
  });
}

export async function startSandbox(policy: SandboxPolicy): Promise<SandboxRuntime> {
  const down = (why: string): SandboxRuntime => ({
    unavailable: why,
    wrap: () => Promise.reject(new Error(why)),
    release: () => false,
    stop: () => Promise.resolve(),
  });
  if (process.platform === 'win32')
    return down("sandbox-runtime's Windows support is an alpha that needs an administrator's one-time setup");
  if (!SandboxManager.isSupportedPlatform()) return down(`there is no sandbox for ${process.platform}`);
  const deps = SandboxManager.checkDependencies();
  if (deps.errors.length) return down(`${deps.errors.join('; ')} (on Debian and Ubuntu: apt-get install bubblewrap socat ripgrep)`);
  // What killed processes' sandboxes left (stop() never ran in them); this one's socket joins the folder next.
  await removeStaleSandboxSockets();
  try {
    await SandboxManager.initialize(runtimeConfig(policy));
  } catch (error) {
    return down(`it did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const wrap = (command: string, p: SandboxPolicy) => SandboxManager.wrapWithSandbox(command, undefined, runtimeConfig(p));
  const failed = await probe(await wrap('true', policy));
  SandboxManager.cleanupAfterCommand();
  if (failed) {
    await SandboxManager.reset();
    return down(`a test command failed in it: ${failed}`);
  }
  // sandbox-runtime's proxy is one per process and reads one host list per request: it allows the
  // hosts of every command (and MCP server) still running, each counted while it runs, so one
  // starting with other hosts does not close the network under another.
  const hostCounts = new Map<string, number>();
  let hosts = JSON.stringify(policy.allowedHosts);
  const countHosts = (list: readonly string[], by: 1 | -1) => {
    for (const host of new Set(list)) {
      const n = (hostCounts.get(host) ?? 0) + by;
      if (n > 0) hostCounts.set(host, n);
      else hostCounts.delete(host);
    }
    const now = [...hostCounts.keys()].sort();
    if (JSON.stringify(now) === hosts) return;
    SandboxManager.updateConfig(runtimeConfig({ ...policy, allowedHosts: now }));
    hosts = JSON.stringify(now);
  };
  // Placeholders are shared by every command in flight: only the last one to end removes them,
  // or a command (or a long-lived MCP server) starting beside it would find them gone.
  let live = 0;
  return {
    unavailable: undefined,
    async wrap(command, p) {
      // The file rules go with each command; the hosts, with every command that runs (above).
      countHosts(p.allowedHosts, 1);
      let line: string;
      try {
        line = await wrap(command, p);
      } catch (error) {
        countHosts(p.allowedHosts, -1);
        throw error;
      }
      live++;
      // sandbox-runtime adds its own protected names (.bashrc, .idea…) relative to this process's folder.
      const denied = process.platform === 'linux' ? [...p.denyWrite, ...linuxGetCwdMandatoryDenyPaths()] : [];
      // Told to the caller, not kept here: this is a bundle of its own, the change recording another's.
      const placeholders = placeholdersOf(denied, p.allowWrite);
      const gitExcludesFile = p.allowWrite[0] ? placeholderExcludes(p.allowWrite[0], denied) : undefined;
      return gitExcludesFile ? { line, gitExcludesFile, placeholders } : { line, placeholders };
    },
    release: (allowedHosts) => {
      countHosts(allowedHosts, -1);
      live = Math.max(0, live - 1);
      if (live > 0) return false;
      SandboxManager.cleanupAfterCommand();
      return true;
    },
    stop: () => SandboxManager.reset(),
  };
}

/**
 * Where bubblewrap will make a placeholder for `denied` (sandbox-runtime's rule, linux-sandbox-utils):
 * at the first missing component of a missing path whose nearest existing folder is writable, or
 * at an empty file with no write bits an earlier sandbox left (it is taken over and removed).
 */
export function placeholdersOf(denied: readonly string[], allowWrite: readonly string[]): string[] {
  const out = new Set<string>();
  const writable = (path: string) => allowWrite.some((w) => isInside(w, path));
  for (const given of denied) {
    const path = realFolderOf(given);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info) {
      if (info.isFile() && info.size === 0 && (info.mode & 0o222) === 0 && writable(dirname(path))) out.add(path);
      continue;
    }
    let first = path;
    let above = dirname(path);
    while (above !== dirname(above) && !lstatSync(above, { throwIfNoEntry: false })) {
      first = above;
      above = dirname(above);
    }
    if (lstatSync(above, { throwIfNoEntry: false })?.isDirectory() && writable(above)) out.add(first);
  }
  return [...out];
}

/** `path` with the links of its folder resolved (the leaf may be missing), as sandbox-runtime spells it. */
function realFolderOf(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}
