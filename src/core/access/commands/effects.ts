import type { Arg } from './args';

/**
 * What a simple command does beyond its own output, read from its name and arguments: the files
 * it writes by argument (judged like redirections), the command or shell code it runs in its place
 * (judged in its stead), and what it does that no text check can see (`opaque`: inline code, an
 * archive's contents), which asks unless the OS sandbox holds it.
 */
export interface Effects {
  /** Paths it writes, relative to the folder it runs in. */
  writes: Arg[];
  /** Where links it makes lead: a link to outside the workspace is a way out. */
  linkSources: Arg[];
  opaque?: string;
  /** It only reads the files it names: naming a protected file is no concern (unless a secret). */
  readsOnly: boolean;
  /** The command a wrapper runs (`env X=1 cmd`, `xargs cmd`), judged in its place. */
  inner?: Arg[];
  /** Shell code it runs (`bash -c`, `eval`), judged as a command line of its own. */
  script?: Arg;
  /**
   * The environment variables a wrapper sets or unsets for the command it runs (`env X=1`,
   * `env -u GIT_CONFIG_COUNT`, `env -i`: `*`): they can change what that command runs (LD_PRELOAD,
   * GIT_EXTERNAL_DIFF, PAGER) or take away the settings that keep git from running programs.
   */
  sets?: string[];
  /** A wrapper or an interpreter: an allowlist entry of its name alone never matches it. */
  launcher: boolean;
}
