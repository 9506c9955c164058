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
 * `paths` sorted by compareWalkOrder, fast: each path becomes one key whose plain string order is
 * the walk order (a folder's name is marked after its files' names), so the sort compares strings
 * instead of splitting paths 20 times each.
 */
export function sortInWalkOrder(paths: readonly string[]): string[] {
  const keyed = paths.map((path) => {
    const slash = path.lastIndexOf('/');
    const key = slash < 0 ? `\u0001${path}` : `\u0002${path.slice(0, slash).replaceAll('/', '\u0000\u0002')}\u0000\u0001${path.slice(slash + 1)}`;
    return { key, path };
  });
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.path);
}
