import { oneLine } from '../../shared/oneLine';
import { readmeSections, type ReadmeSection } from './readmeSections';

/** The extension's own README, as "Subagents: Open README" finds it in the extension's folder. */
export interface ReadmeFile {
  text: string;
  /** Opens it in the Markdown preview scrolled to that heading (undefined: as the preview opens it). */
  preview(section: ReadmeSection | undefined): Promise<void>;
}

/** What the command needs of the editor: a port, so it runs in unit tests without vscode. */
export interface OpenReadmeDeps {
  /** The README in the extension's folder; undefined when there is none. */
  find(): Promise<ReadmeFile | undefined>;
  /** The extension's folder, named when the README is missing. */
  folder: string;
  warn(message: string): void;
}

/** What the command did: the section shown, the top (with a warning saying why), or nothing (no README). */
export type OpenReadmeResult = { shown: 'section'; slug: string } | { shown: 'top' } | { shown: 'nothing' };

/**
 * "Subagents: Open README", and the target of the settings' links
 * (`command:subagents.openReadme?["configure-a-model"]`): the README shipped in the extension,
 * in the Markdown preview at the section whose heading id is `section`. From the palette (no
 * section) it opens at the top; a section the README does not have, or an argument that is not a
 * section name, opens it at the top and says so.
 */
export async function openReadme(deps: OpenReadmeDeps, section?: unknown): Promise<OpenReadmeResult> {
  const readme = await deps.find();
  if (!readme) {
    deps.warn(`The extension's README.md is not in its folder (${deps.folder}): reinstall Subagents to get it back.`);
    return { shown: 'nothing' };
  }
  const sections = readmeSections(readme.text);
  // The top is its title's heading when the README starts with one: a preview already open (and
  // scrolled) is only brought forward when no heading is named, and stays where it was.
  const top = sections[0]?.line === 0 ? sections[0] : undefined;
  if (section === undefined) {
    await readme.preview(top);
    return { shown: 'top' };
  }
  const wanted = typeof section === 'string' ? section.trim().toLowerCase() : undefined;
  const found = wanted ? sections.find((s) => s.slug === wanted) : undefined;
  await readme.preview(found ?? top);
  if (found) return { shown: 'section', slug: found.slug };
  deps.warn(
    typeof section === 'string'
      ? `The README has no section "${oneLine(section, 80)}", so it opened at the top: its headings list what it covers.`
      : `Open README takes a section name (a heading's id, such as "configure-a-model"), not ${oneLine(section, 80) || typeof section}, so it opened at the top.`,
  );
  return { shown: 'top' };
}
