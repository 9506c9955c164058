import { describe, expect, it } from 'vitest';
import { compareWalkOrder, sortInWalkOrder } from '../../../../src/core/tools/search/ripgrep/walkOrder';

describe('walk order', () => {
  const walked = ['b.txt', 'z.txt', 'a/x.ts', 'a/b/c.ts', 'a/b/d/e.ts', 'a/b.x/f.ts', 'ab/g.ts', 'b/h.ts', 'b/h/i.ts'];
  it("puts a folder's files before its folders, each folder walked whole, names in code-unit order", () => {
    const shuffled = [...walked].reverse();
    expect([...shuffled].sort(compareWalkOrder)).toEqual(walked);
    expect(sortInWalkOrder(shuffled)).toEqual(walked);
    expect(sortInWalkOrder([])).toEqual([]);
    expect(sortInWalkOrder(['a/b/c.ts', 'a/b/a.ts'])).toEqual(['a/b/a.ts', 'a/b/c.ts']);
  });
  it('sorts by keys exactly as the comparator does', () => {
    const paths = Array.from({ length: 500 }, (_, i) =>
      ['a', 'a-b', 'a.b', 'aB', 'b']
        .slice(0, 1 + (i % 4))
        .map((s, j) => `${s}${(i * 7 + j) % 5}`)
        .join('/'),
    );
    const unique = [...new Set(paths)].filter((p) => !paths.some((q) => q.startsWith(`${p}/`)));
    expect(sortInWalkOrder(unique)).toEqual([...unique].sort(compareWalkOrder));
  });
});
