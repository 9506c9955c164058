import { describe, expect, it } from 'vitest';
import { FOLD_AT, foldedItemCount, foldText, showAllLabel } from '../../../src/shared/outputFold';

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('output folding', () => {
  it('shows text of twenty lines or fewer whole, a final newline not counting as a line', () => {
    expect(foldText(numbered(FOLD_AT))).toBeUndefined();
    expect(foldText(`${numbered(FOLD_AT)}\n`)).toBeUndefined();
    expect(foldText('')).toBeUndefined();
  });

  it('folds longer text to its first lines, or its last ones for a command, and counts them all', () => {
    const first = foldText(numbered(120));
    expect(first?.total).toBe(120);
    expect(first?.shown.split('\n')).toEqual(Array.from({ length: FOLD_AT }, (_, i) => `line ${i + 1}`));
    const last = foldText(`${numbered(21)}\n`, 'last');
    expect(last?.total).toBe(21);
    expect(last?.shown.split('\n')[0]).toBe('line 2');
    expect(last?.shown.split('\n').at(-1)).toBe('line 21');
  });

  it('shows the first twenty items of a longer list', () => {
    expect(foldedItemCount(51)).toBe(FOLD_AT);
    expect(foldedItemCount(FOLD_AT)).toBe(FOLD_AT);
    expect(foldedItemCount(3)).toBe(3);
  });

  it('says how much there is on the button', () => {
    expect(showAllLabel(51, 'Matches')).toBe('51 matches, show all');
    expect(showAllLabel(120, 'lines')).toBe('120 lines, show all');
  });
});
