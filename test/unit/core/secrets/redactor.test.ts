import { describe, expect, it } from 'vitest';
import type { RunEventBody } from '../../../../src/core/runEvents';
import { StreamRedaction } from '../../../../src/core/access/secrets/redactEvents';
import { Redactor } from '../../../../src/core/access/secrets/redactor';

const KEY = 'sk-test-0123456789abcdef';

describe('Redactor', () => {
  it('takes the values of variables named like keys, tokens, secrets and passwords, of 8 characters or more', () => {
    const r = Redactor.fromEnvironment({
      OPENAI_API_KEY: KEY,
      GITHUB_TOKEN: 'ghp_abcdefgh',
      db_password: 'hunter2hunter2',
      MY_SECRET: 'short',
      HOME: '/home/someone/long/path',
      PATH: '/usr/bin:/bin',
    });
    expect(r.size).toBe(3);
    expect(r.redactText(`a ${KEY} b ghp_abcdefgh c hunter2hunter2 d short /home/someone/long/path`)).toBe(
      'a [redacted OPENAI_API_KEY] b [redacted GITHUB_TOKEN] c [redacted db_password] d short /home/someone/long/path',
    );
  });

  it('replaces a secret that contains another one whole, and copies values without touching the original', () => {
    const r = new Redactor();
    r.add('abcdefgh', 'inner');
    r.add('XXabcdefghYY', 'outer');
    expect(r.redactText('XXabcdefghYY and abcdefgh')).toBe('[redacted outer] and [redacted inner]');
    const input = { nested: [{ text: 'key abcdefgh' }], abcdefgh: 1 };
    expect(r.redactValue(input)).toEqual({ nested: [{ text: 'key [redacted inner]' }], '[redacted inner]': 1 });
    expect(input.nested[0]!.text).toBe('key abcdefgh');
  });

  it('catches a secret split across streamed text pieces, and holds back no more than it must', () => {
    const r = new Redactor();
    r.add(KEY, 'OPENAI_API_KEY');
    const out: RunEventBody[] = [];
    const redaction = new StreamRedaction(r);
    const emit = (body: RunEventBody) => redaction.pass(body, (b) => out.push(b));
    for (const text of ['Your key is sk-te', 'st-0123', '456789abcdef, and ', 'that is all. s']) emit({ kind: 'text.delta', text });
    emit({ kind: 'warning', message: `the key ${KEY} again` });
    const texts = out.filter((b) => b.kind === 'text.delta').map((b) => (b.kind === 'text.delta' ? b.text : ''));
    expect(texts.join('')).toBe('Your key is [redacted OPENAI_API_KEY], and that is all. s');
    expect(texts.every((t) => !t.includes('sk-te'))).toBe(true);
    // The last "s" could have begun the key: it waited for the next event, then went out first.
    expect(out.at(-2)).toEqual({ kind: 'text.delta', text: 's' });
    expect(out.at(-1)).toEqual({ kind: 'warning', message: 'the key [redacted OPENAI_API_KEY] again' });
  });
});
