/**
 * The order in which walkWorkspace yields paths: in each folder its files by name first, then its
 * folders by name, each walked whole. Ripgrep's parallel walk finds files in any order; sorting
 * with this puts them where the walker would, so caps keep the same first files either way.
 */
export function compareWalkOrder(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  let i = 0;
  while (i < as.length - 1 && i < bs.length - 1 && as[i] === bs[i]) i++;
  const aFile = i === as.length - 1;
  const bFile = i === bs.length - 1;
  if (aFile !== bFile) return aFile ? -1 : 1;
  const x = as[i]!;
  const y = bs[i]!;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `paths` (files, each once) sorted by compareWalkOrder, fast: grouped by folder, each folder's
 * names sorted on their own (short strings, few at a time), then the folders walked as the walker
 * walks them.
 */
export function sortInWalkOrder(paths: readonly string[]): string[] {
  const filesIn = new Map<string, string[]>();
  const foldersIn = new Map<string, string[]>();
  /** Files of `folder`, the folder (and any parent not yet seen) entered into its parent's list. */
  const filesOf = (folder: string): string[] => {
    const known = filesIn.get(folder);
    if (known) return known;
    const files: string[] = [];
    filesIn.set(folder, files);
    if (folder !== '') {
      const slash = folder.lastIndexOf('/');
      const parent = slash < 0 ? '' : folder.slice(0, slash);
      filesOf(parent);
      const siblings = foldersIn.get(parent);
      if (siblings) siblings.push(folder);
      else foldersIn.set(parent, [folder]);
    }
    return files;
  };
  filesOf('');
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    filesOf(slash < 0 ? '' : path.slice(0, slash)).push(path);
  }
  const sorted: string[] = [];
  // Names in one folder share its prefix, so sorting whole paths (by code unit, as sort() does) sorts names.
  const stack = [''];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    for (const file of filesIn.get(folder)!.sort()) sorted.push(file);
    const folders = foldersIn.get(folder)?.sort() ?? [];
    for (let i = folders.length - 1; i >= 0; i--) stack.push(folders[i]!);
  }
  return sorted;
}
