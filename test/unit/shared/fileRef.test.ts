import { describe, expect, it } from 'vitest';
import { parseFileRef } from '../../../src/shared/fileRef';

describe('file references in model text', () => {
  it('read paths with a line in the forms models write', () => {
    expect(parseFileRef('src/invoice.ts')).toEqual({ path: 'src/invoice.ts' });
    expect(parseFileRef('src/invoice.ts:42')).toEqual({ path: 'src/invoice.ts', line: 42 });
    expect(parseFileRef('src/invoice.ts:42:7')).toEqual({ path: 'src/invoice.ts', line: 42 });
    expect(parseFileRef('src/invoice.ts:10-24')).toEqual({ path: 'src/invoice.ts', line: 10 });
    expect(parseFileRef('src/invoice.ts#L42')).toEqual({ path: 'src/invoice.ts', line: 42 });
    expect(parseFileRef('./package.json')).toEqual({ path: 'package.json' });
    expect(parseFileRef('README.md')).toEqual({ path: 'README.md' });
    expect(parseFileRef('Makefile')).toEqual({ path: 'Makefile' });
    expect(parseFileRef('logs/app.log')).toEqual({ path: 'logs/app.log' });
  });

  it('leave code, versions, URLs and paths outside the workspace alone', () => {
    for (const text of [
      'total()',
      'console.log',
      'Math.min',
      'v1.2.3',
      '1.5',
      'https://example.com/a.ts',
      '/etc/passwd',
      '../secret.ts',
      '~/x.ts',
      'C:/x.ts',
      'a b.ts',
      'src/',
      'npm test',
      'src/core',
      '',
    ]) {
      expect(parseFileRef(text), text).toBeUndefined();
    }
  });
});
