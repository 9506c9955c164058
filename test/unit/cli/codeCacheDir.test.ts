import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliCodeCacheDir } from '../../../src/cli/codeCacheDir';

describe("the CLI's code cache folder", () => {
  const home = '/home/ada';

  it('is SUBAGENTS_CODE_CACHE when set, and none for off', () => {
    expect(cliCodeCacheDir({ SUBAGENTS_CODE_CACHE: '/tmp/cc' }, 'linux', home)).toBe('/tmp/cc');
    expect(cliCodeCacheDir({ SUBAGENTS_CODE_CACHE: 'off', XDG_CACHE_HOME: '/x' }, 'linux', home)).toBeUndefined();
    expect(cliCodeCacheDir({ SUBAGENTS_CODE_CACHE: '  ' }, 'linux', home)).toBe(join(home, '.cache', 'subagents', 'code-cache'));
  });

  it("is the platform's cache folder otherwise", () => {
    expect(cliCodeCacheDir({}, 'linux', home)).toBe(join(home, '.cache', 'subagents', 'code-cache'));
    expect(cliCodeCacheDir({ XDG_CACHE_HOME: '/var/cache/ada' }, 'linux', home)).toBe(join('/var/cache/ada', 'subagents', 'code-cache'));
    // The XDG spec: a relative path is to be ignored.
    expect(cliCodeCacheDir({ XDG_CACHE_HOME: 'cache' }, 'linux', home)).toBe(join(home, '.cache', 'subagents', 'code-cache'));
    expect(cliCodeCacheDir({}, 'darwin', home)).toBe(join(home, 'Library', 'Caches', 'subagents', 'code-cache'));
    expect(cliCodeCacheDir({ LOCALAPPDATA: '/c/Users/ada/AppData/Local' }, 'win32', home)).toBe(
      join('/c/Users/ada/AppData/Local', 'subagents', 'code-cache'),
    );
  });

  it('is none without a home folder to put it in', () => {
    expect(cliCodeCacheDir({}, 'linux', '')).toBeUndefined();
  });
});
