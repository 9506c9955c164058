import { randomUUID } from 'node:crypto';
import type { EmitRunEvent } from '../../runEvents';
import type { AnyToolSpec } from '../../tools/toolSpec';
import { withoutLineNumbers } from '../../tools/builtin/lineNumbers';
import type { ReadTextFileRequest, WriteTextFileRequest } from './acpTypes';

/**
 * fs/read_text_file and fs/write_text_file, served by the run's own read_file and write_file: the
 * same confinement to the workspace, protected files and approvals, per-file queue, conflict guard
 * and edit attribution (file.changed on this run) as a model's call. Each shows on the node as that
 * tool's call; a refusal is an error reply (acpConnection.ts) and nothing is written.
 */
export function acpFileServer(tools: { read?: AnyToolSpec; write?: AnyToolSpec }, run: RunIds, emit: EmitRunEvent) {
  async function call(spec: AnyToolSpec | undefined, name: string, input: Record<string, unknown>, signal: AbortSignal) {
    if (!spec) throw new Error(`This agent's profile does not allow ${name}, so the file was not touched.`);
    const toolCallId = `acp_fs_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    emit({ kind: 'tool.started', toolCallId, tool: name, input });
    let result: unknown;
    try {
      result = await spec.execute(input, { runId: run.runId, threadId: run.threadId, toolCallId, signal });
    } catch (error) {
      result = { error: error instanceof Error ? error.message : String(error) };
    }
    const failed = isError(result);
    emit({ kind: 'tool.finished', toolCallId, tool: name, output: result, isError: failed !== undefined });
    if (failed !== undefined) throw new Error(failed);
    return result as Record<string, unknown>;
  }

  return {
    async read(request: ReadTextFileRequest, signal: AbortSignal): Promise<{ content: string }> {
      const start = request.line ?? 1;
      const wanted = request.limit ?? undefined;
      const parts: string[] = [];
      // read_file hands long files over in parts: the agent asked for the whole range, so it gets it.
      for (let line = start; ;) {
        const endLine = wanted === undefined ? undefined : start + wanted - 1;
        const page = await call(tools.read, 'read_file', { path: request.path, startLine: line, ...(endLine ? { endLine } : {}) }, signal);
        const content = String(page['content'] ?? '');
        parts.push(withoutLineNumbers(content) ?? content);
        const last = Number(page['endLine']);
        const total = Number(page['totalLines']);
        if (!page['note'] || !(last < total) || (endLine !== undefined && last >= endLine)) break;
        line = last + 1;
      }
      return { content: parts.join('\n') };
    },
    async write(request: WriteTextFileRequest, signal: AbortSignal): Promise<Record<string, never>> {
      await call(tools.write, 'write_file', { path: request.path, content: request.content }, signal);
      return {};
    },
  };
}

export interface RunIds {
  runId: string;
  threadId: string;
}

function isError(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'string' ? value.error : undefined;
}
