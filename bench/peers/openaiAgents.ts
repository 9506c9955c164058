import { Agent, run, setTracingDisabled, type Model, type ModelRequest, type StreamEvent } from '@openai/agents';
import { agentNames, childDeltas, childStreams, sleep, SUPERVISOR_ANSWER, TASK } from '../mockModels';

// @openai/agents: agents as tools. The supervisor's model asks for one call of each child agent's
// tool in one response (its way of delegating one task to N agents); the runner runs them
// concurrently. Every run streams and its text deltas are consumed, as in the other columns.
// Its models implement the SDK's own Model interface with the script and timing of
// ../mockModels.ts (wait L ms, then 50 deltas), so no adapter layer is counted. Tracing is off:
// by default it exports traces to OpenAI's servers, which nobody here would.

setTracingDisabled(true);

const usage = { requests: 1, inputTokens: 10, outputTokens: 50, totalTokens: 60 };
let responses = 0;

type OutputItem = Extract<StreamEvent, { type: 'response_done' }>['response']['output'][number];

/** A streamed response: `response_started`, the deltas, then `response_done` with `output`. */
async function* respond(latencyMs: number, deltas: string[], output: OutputItem[]): AsyncIterable<StreamEvent> {
  if (latencyMs > 0) await sleep(latencyMs);
  yield { type: 'response_started' };
  for (const delta of deltas) yield { type: 'output_text_delta', delta };
  yield { type: 'response_done', response: { id: `resp-${++responses}`, usage, output } };
}

const message = (text: string): OutputItem => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

function mockModel(stream: (request: ModelRequest) => AsyncIterable<StreamEvent>): Model {
  return { getResponse: () => Promise.reject(new Error('the bench only streams')), getStreamedResponse: stream };
}

function childModel(latencyMs: number): Model {
  return mockModel(() => {
    childStreams.count++;
    return respond(latencyMs, childDeltas(), [message(childDeltas().join(''))]);
  });
}

/** Calls every tool once in its first response; answers once the input holds their results. */
function supervisorModel(toolNames: string[]): Model {
  return mockModel((request) => {
    const answered = Array.isArray(request.input) && request.input.at(-1)?.type === 'function_call_result';
    if (answered) return respond(0, SUPERVISOR_ANSWER, [message(SUPERVISOR_ANSWER.join(''))]);
    const calls = toolNames.map((name): OutputItem => {
      const callId = `call-${Math.random().toString(36).slice(2)}`;
      return { type: 'function_call', callId, id: callId, name, status: 'completed', arguments: JSON.stringify({ input: TASK }) };
    });
    return respond(0, [], calls);
  });
}

export function openaiAgentsScenario(n: number, latencyMs: number): () => Promise<string> {
  const child = childModel(latencyMs);
  const tools = agentNames(n).map((name) =>
    new Agent({ name, instructions: `You are ${name}.`, model: child }).asTool({
      toolName: name.replace(/-/g, '_'),
      toolDescription: `Subagent ${name}.`,
      // With a stream handler the child runs streamed, so its deltas pass through the runner.
      onStream: () => undefined,
    }),
  );
  const supervisor = new Agent({
    name: 'supervisor',
    instructions: 'Delegate to your subagents.',
    model: supervisorModel(tools.map((t) => t.name)),
    tools,
  });
  return async () => {
    const result = await run(supervisor, 'Delegate the survey.', { stream: true });
    let answer = '';
    for await (const event of result)
      if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') answer += event.data.delta;
    await result.completed;
    return answer;
  };
}
