import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { measurePromptSizes, PROMPT_AGENTS } from '../../../../bench/promptSizes';
import { leanJsonSchema, toolJsonSchema } from '../../../../src/core/tools/toolSchema';

// Issue 43 item 1: the tools every model call carries, as the engine gives them to each run (a
// real engine, three agents, default settings; measured on what the provider is handed).

describe('the tool schemas a run sends on every call', () => {
  it('stay within 7,000 characters for the supervisor and 4,500 for a subagent, with three agents', async () => {
    expect(PROMPT_AGENTS).toHaveLength(3);
    const { supervisor, subagent } = await measurePromptSizes();
    expect(supervisor.tools.map((t) => t.name)).toContain('delegate_task');
    expect(subagent.tools.length).toBeGreaterThan(5);
    expect(supervisor.toolsJson.length).toBeLessThanOrEqual(7000);
    expect(subagent.toolsJson.length).toBeLessThanOrEqual(4500);
  });

  it('carry no $schema and no safe-integer bounds, and each tool has a description', async () => {
    const { supervisor, subagent } = await measurePromptSizes();
    for (const run of [supervisor, subagent]) {
      expect(run.toolsJson).not.toContain('$schema');
      expect(run.toolsJson).not.toContain('9007199254740991');
      for (const t of run.tools) expect(t.description?.trim(), t.name).toBeTruthy();
    }
  });

  it('keep real bounds, and take out only the safe-integer ones', async () => {
    const schema = await toolJsonSchema(
      z.object({ line: z.number().int().min(1).optional(), timeoutMs: z.number().int().min(1).max(60000), n: z.number().int() }),
    ).jsonSchema;
    expect(schema).toEqual({
      type: 'object',
      properties: {
        line: { type: 'integer', minimum: 1 },
        timeoutMs: { type: 'integer', minimum: 1, maximum: 60000 },
        n: { type: 'integer' },
      },
      required: ['timeoutMs', 'n'],
    });
  });

  it('send no additionalProperties: false and no length guards for what zod checks, and still refuse what breaks them', async () => {
    const input = z.object({ command: z.string().min(1).max(10), items: z.array(z.object({ text: z.string() })).max(2) });
    const schema = toolJsonSchema(input);
    expect(await schema.jsonSchema).toEqual({
      type: 'object',
      properties: {
        command: { type: 'string' },
        items: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
      },
      required: ['command', 'items'],
    });
    expect((await schema.validate!({ command: '', items: [] })).success).toBe(false);
    expect((await schema.validate!({ command: 'x'.repeat(11), items: [] })).success).toBe(false);
    expect((await schema.validate!({ command: 'ls', items: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] })).success).toBe(false);
    expect((await schema.validate!({ command: 'ls', items: [{ text: 'a' }] })).success).toBe(true);
  });

  it('keep the length guards of a schema a tool brings as JSON (MCP): nothing of ours checks those', () => {
    const mcp = {
      type: 'object' as const,
      properties: { q: { type: 'string' as const, maxLength: 100 } },
      additionalProperties: false,
    };
    expect(leanJsonSchema(mcp)).toEqual({ type: 'object', properties: { q: { type: 'string', maxLength: 100 } } });
  });

  it('leave a field named like a keyword alone (an MCP tool may have one called "maximum")', () => {
    const mcp = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object' as const,
      properties: {
        maximum: { type: 'integer' as const, maximum: Number.MAX_SAFE_INTEGER },
        minimum: { type: 'number' as const, minimum: -5 },
      },
    };
    expect(leanJsonSchema(mcp)).toEqual({
      type: 'object',
      properties: { maximum: { type: 'integer' }, minimum: { type: 'number', minimum: -5 } },
    });
    // The original is not changed: an MCP server's schema may be shared.
    expect(mcp.$schema).toBeDefined();
  });

  it('still validates what a model sends: a bad input never reaches the tool', async () => {
    const schema = toolJsonSchema(z.object({ line: z.number().int().min(1) }));
    expect((await schema.validate!({ line: 0 })).success).toBe(false);
    expect((await schema.validate!({ line: 'one' })).success).toBe(false);
    expect(await schema.validate!({ line: 3 })).toEqual({ success: true, value: { line: 3 } });
  });

  it('keeps a field an MCP tool named "$schema", and only drops the draft marker at the top', () => {
    const mcp = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object' as const,
      properties: { $schema: { type: 'string' as const } },
      required: ['$schema'],
    };
    expect(leanJsonSchema(mcp)).toEqual({ type: 'object', properties: { $schema: { type: 'string' } }, required: ['$schema'] });
  });
});
