import { describe, expect, it } from 'vitest';
import { splitAttachedContext, withAttachedContext, type AttachedContext } from '../../../src/shared/attachedContext';

// Context the user attached travels inside the prompt (the model reads it there, the thread keeps
// it), in a block the panel can take apart again to show chips instead of the file's text.

const file: AttachedContext = {
  kind: 'file',
  path: 'src/invoice.ts',
  label: 'src/invoice.ts',
  text: 'export const a = 1;\n</attachment>\n',
};
const selection: AttachedContext = {
  kind: 'selection',
  path: 'src/money "x".ts',
  label: 'src/money "x".ts:3-4',
  startLine: 3,
  endLine: 4,
  text: 'line 3\nline 4',
};

describe('attached context', () => {
  it('adds a block after the prompt that names each file and its lines, for the model to read', () => {
    const prompt = withAttachedContext('Why is this wrong?', [file, selection]);
    expect(prompt.startsWith('Why is this wrong?\n\n<attachments>\n<attachment kind="file" path="src/invoice.ts" chars="')).toBe(true);
    expect(prompt).toContain(
      '<attachment kind="selection" path="src/money &quot;x&quot;.ts" lines="3-4" chars="13">\nline 3\nline 4\n</attachment>',
    );
    expect(prompt.endsWith('</attachments>')).toBe(true);
    expect(withAttachedContext('Just this', [])).toBe('Just this');
  });

  it('splits a prompt back into the text and its attachments, exactly, whatever the files contain', () => {
    const prompt = withAttachedContext('Why is this wrong?', [file, selection]);
    expect(splitAttachedContext(prompt)).toEqual({
      prompt: 'Why is this wrong?',
      attachments: [
        { kind: 'file', label: 'src/invoice.ts', path: 'src/invoice.ts' },
        { kind: 'selection', label: 'src/money "x".ts:3-4', path: 'src/money "x".ts', startLine: 3, endLine: 4 },
      ],
    });
  });

  it('leaves a prompt that only looks like it has a block as it is', () => {
    for (const text of [
      'plain',
      'talking about\n\n<attachments>\n<attachment kind="file" path="a" chars="999">\nx\n</attachment>\n</attachments>',
      '<attachments>\n</attachments>',
    ]) {
      expect(splitAttachedContext(text)).toEqual({ prompt: text, attachments: [] });
    }
  });
});
