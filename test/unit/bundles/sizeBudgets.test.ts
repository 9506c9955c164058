import { describe, expect, it } from 'vitest';
import { LAZY_BUNDLES, overBudget, SIZE_BUDGETS_KB } from '../../../scripts/bundles.mjs';

describe('bundle size budgets', () => {
  it('name a bundle over its budget with its size and what to do, and pass the rest', () => {
    const kb = (n: number) => ({ bytes: n * 1024 });
    const over = overBudget({
      'dist/engine.js': kb(SIZE_BUDGETS_KB.engine + 1),
      'dist/bashParser.js': kb(SIZE_BUDGETS_KB.bashParser - 1),
      'dist/engine.js.map': kb(99_999),
    });
    expect(over).toHaveLength(1);
    expect(over[0]).toMatch(/^dist\/engine\.js is \d+\.\d KB, over its budget of 1000 KB .*lazy bundle/);
  });

  it('cover every lazy bundle and the engine', () => {
    for (const name of ['engine', ...Object.keys(LAZY_BUNDLES)]) expect(SIZE_BUDGETS_KB).toHaveProperty(name);
  });
});
