import { describe, expect, it } from 'vitest';
import { KNOWN_FIELD_NAMES } from '../../../../src/core/config/agentFiles/agentFields';
import { readFrontMatter } from '../../../../src/core/config/agentFiles/frontMatter';

const read = (text: string) => readFrontMatter(text, KNOWN_FIELD_NAMES);
const fields = (text: string) => {
  const r = read(text);
  if (!r.ok) throw new Error(r.message);
  return Object.fromEntries(r.frontMatter.fields.map((f) => [f.key, f.value]));
};

describe('readFrontMatter', () => {
  it('reads strict YAML with the range of every key, value and list item', () => {
    const r = read('---\nname: reviewer\ntools: [Read, "Grep"]\nmodel:\n  - a\n  - b\n---\nBody text\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { frontMatter } = r;
    expect(frontMatter.reader).toBe('yaml');
    expect(frontMatter.body).toBe('Body text\n');
    const tools = frontMatter.fields.find((f) => f.key === 'tools')!;
    expect(tools.keyRange).toEqual({ start: { line: 2, character: 0 }, end: { line: 2, character: 5 } });
    expect(tools.items!.map((i) => [i.value, i.range.start.character, i.range.end.character])).toEqual([
      ['Read', 8, 12],
      ['Grep', 14, 20],
    ]);
    expect(frontMatter.fields.find((f) => f.key === 'model')!.items!.map((i) => i.range.start.line)).toEqual([4, 5]);
  });

  it('falls back to the line reader for a one-line description with colons, as Claude Code reads it', () => {
    const text = "---\nname: hipaa\ndescription: Use for health data. Triggers on: 'HIPAA', 'PHI'.\ntools: Read, Grep\n---\nYou help.";
    const r = read(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.frontMatter.reader).toBe('lenient');
    expect(r.frontMatter.strictError!.message).toBe(
      'the "description" value has a colon followed by a space on line 3, which YAML reads as a field inside the value; put the value in quotes',
    );
    expect(r.frontMatter.strictError!.range.start.line).toBe(2);
    expect(fields(text)).toEqual({ name: 'hipaa', description: "Use for health data. Triggers on: 'HIPAA', 'PHI'.", tools: 'Read, Grep' });
    const description = r.frontMatter.fields.find((f) => f.key === 'description')!;
    expect(description.valueRange).toEqual({
      start: { line: 2, character: 13 },
      end: { line: 2, character: 13 + "Use for health data. Triggers on: 'HIPAA', 'PHI'.".length },
    });
  });

  it('keeps <example> lines with "user:" inside the description instead of reading them as fields', () => {
    const text =
      '---\nname: helper\ndescription: Use it for docs. Examples:\n<example>\nuser: "write the docs"\nassistant: "I will use helper"\n</example>\nmodel: sonnet\n---\n';
    expect(fields(text)).toEqual({
      name: 'helper',
      description: 'Use it for docs. Examples: <example> user: "write the docs" assistant: "I will use helper" </example>',
      model: 'sonnet',
    });
  });

  it('reads quoted values, flow and block lists and booleans in the line reader too', () => {
    const text = "---\ndescription: it: breaks\nname: 'My Agent'\ntools: ['a', b]\nagents:\n  - x\n  - 'y'\nuser-invocable: false\n---\n";
    expect(fields(text)).toEqual({
      description: 'it: breaks',
      name: 'My Agent',
      tools: ['a', 'b'],
      agents: ['x', 'y'],
      'user-invocable': false,
    });
  });

  it('accepts a closing line of more dashes, CRLF line ends and a byte-order mark', () => {
    expect(fields('---\nname: a\ndescription: b\n----------------\nbody')).toEqual({ name: 'a', description: 'b' });
    const crlf = read('\uFEFF---\r\nname: a\r\ndescription: b: c\r\n---\r\nbody\r\n');
    expect(crlf.ok && crlf.frontMatter.fields.map((f) => f.value)).toEqual(['a', 'b: c']);
  });

  it('says what is wrong when there is no front matter, it is never closed, or no reader can read it', () => {
    const none = read('\n    ---\n    name: x\n    ---\n');
    expect(none).toMatchObject({ ok: false, code: 'no-front-matter' });
    expect(read('---\nname: x\n')).toMatchObject({ ok: false, code: 'no-front-matter', message: expect.stringMatching(/never closes/) });
    const broken = read('---\n  indented: [unclosed\nplain text line\n---\n');
    expect(broken).toMatchObject({ ok: false, code: 'bad-yaml' });
    expect(read('---\n- a\n- b\n---\n')).toMatchObject({ ok: false, code: 'not-a-mapping' });
  });

  it('marks an unclosed quote or list where it opens, in a sentence, not where the parser gave up (issue 42 item 5)', () => {
    const quote = read('---\nname: a\ndescription: hi\nmodel: "gpt-5\n---\nBody.\n');
    expect(quote).toMatchObject({
      ok: false,
      code: 'bad-yaml',
      message:
        'has front matter that no reader can read: the "model" value on line 4 opens a quote (") that is never closed; close it at the end of the value',
      range: { start: { line: 3, character: 7 }, end: { line: 3, character: 13 } },
    });
    const list = read("---\nname: a\ntools: ['read_file', grep\ndescription: hi\n---\n");
    expect(list).toMatchObject({ ok: false, code: 'bad-yaml', range: { start: { line: 2, character: 7 } } });
    if (!list.ok) expect(list.message).toMatch(/the "tools" value on line 3 opens a list with "\[" that is never closed; end it with "\]"/);
    const twice = read('---\nname: a\ndescription: hi\nname: b\n---\n');
    const strict = twice.ok ? twice.frontMatter.strictError : undefined;
    expect(strict).toEqual({
      message: '"name" is set a second time on line 4; keep one of the two',
      range: { start: { line: 3, character: 0 }, end: { line: 3, character: 4 } },
    });
  });
});
