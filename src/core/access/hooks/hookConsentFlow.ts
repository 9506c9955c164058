import type { DeclaredHooks } from '../../config/hooks/readHooks';
import type { HookDeclaration } from '../../config/hooks/hookDeclarations';
import { hooksToRun, type HooksToRun } from './hookConsent';

/** The user's answer to "run this repository's hooks?"; undefined: the prompt was dismissed. */
export type HookConsentAnswer = 'allow' | 'notNow' | 'show' | undefined;

/** How an editor asks, remembers and shows (the host's adapter: src/host/workspace/hookConsentPrompt.ts). */
export interface HookConsentPorts {
  /** The hooks declared now (read per request, so an edit applies to the next). */
  read(): DeclaredHooks;
  /** An untrusted workspace never runs its hooks, and is not asked. */
  trusted(): boolean;
  /**
   * The fingerprint the user allowed. It lives in the editor's own storage for this workspace,
   * never in a file or a setting of the workspace: a project cannot allow its own hooks.
   */
  remembered(): string | undefined;
  remember(fingerprint: string | undefined): Promise<void>;
  /** Asks the user, listing the commands and where they come from. */
  ask(repository: readonly HookDeclaration[]): Promise<HookConsentAnswer>;
  /** Opens the hook files and the scripts they name. */
  show(repository: readonly HookDeclaration[]): Promise<void>;
  /** The notice's last sentence: how to be asked again. */
  howToAllow: string;
}

/**
 * The editor's consent to the repository's hooks, per workspace. The user's own hooks run as
 * declared. The repository's run once the user chose "Allow" for the fingerprint of these
 * declarations and the scripts they name (readHooks.ts): a change to either asks again. "Not now"
 * holds for this window (the notice says how to be asked again); "Show" opens the files and asks
 * again on the next request. Requests that start while the question is open wait for its answer
 * instead of asking twice.
 */
export class HookConsentFlow {
  private readonly declined = new Set<string>();
  private asking: { fingerprint: string; answer: Promise<boolean> } | undefined;

  constructor(private readonly ports: HookConsentPorts) {}

  /** The hooks of a request starting now, asking first when the repository's are new to the user. */
  async forRequest(): Promise<HooksToRun> {
    const declared = this.ports.read();
    const fingerprint = declared.repositoryFingerprint;
    const repository = declared.hooks.filter((h) => h.scope === 'repository');
    if (repository.length === 0 || !this.ports.trusted()) return this.decided(declared, false);
    if (this.ports.remembered() === fingerprint) return this.decided(declared, true);
    if (this.declined.has(fingerprint)) return this.decided(declared, false);
    return this.decided(declared, await this.askOnce(fingerprint, repository));
  }

  /**
   * Forgets the answer (an "Allow" as much as a "Not now") and asks now. Says what happened, for
   * the command's message: there were no hooks to ask about, or the workspace is not trusted.
   */
  async askAgain(): Promise<'allowed' | 'declined' | 'none' | 'untrusted'> {
    this.declined.clear();
    await this.ports.remember(undefined);
    const declared = this.ports.read();
    const repository = declared.hooks.filter((h) => h.scope === 'repository');
    if (repository.length === 0) return 'none';
    if (!this.ports.trusted()) return 'untrusted';
    return (await this.askOnce(declared.repositoryFingerprint, repository)) ? 'allowed' : 'declined';
  }

  private decided(declared: DeclaredHooks, allowed: boolean): HooksToRun {
    return hooksToRun(declared, allowed, this.ports.howToAllow);
  }

  private askOnce(fingerprint: string, repository: readonly HookDeclaration[]): Promise<boolean> {
    if (this.asking?.fingerprint === fingerprint) return this.asking.answer;
    const answer = this.ask(fingerprint, repository).finally(() => {
      if (this.asking?.answer === answer) this.asking = undefined;
    });
    this.asking = { fingerprint, answer };
    return answer;
  }

  private async ask(fingerprint: string, repository: readonly HookDeclaration[]): Promise<boolean> {
    const answer = await this.ports.ask(repository);
    if (answer === 'allow') {
      await this.ports.remember(fingerprint);
      return true;
    }
    if (answer === 'show') await this.ports.show(repository);
    else this.declined.add(fingerprint);
    return false;
  }
}
