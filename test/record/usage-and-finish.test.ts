import { expect } from 'chai';
import type { ChatResponse, ChatResponseMetadata } from '../../lib/handler/types';
import { consumeStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import type { WireFormat } from '../../lib/providers/registry';
import { runIsolated } from '../security/support/run-isolated';

// Hand-written transcripts of each provider's wire format (SPEC §1 usage and metadata, §10
// finish-reason and usage notes). Every expected value below is a literal worked out by hand from
// the transcript, never computed by partstream.

const noop = { onCompleteResponse: () => undefined, onError: () => undefined };

/** An SSE body: `event:` lines only for the named formats (Anthropic, Responses). */
function sse(events: ReadonlyArray<string | object>, named: boolean): string {
  return events
    .map((event) => {
      const data = typeof event === 'string' ? event : JSON.stringify(event);
      const type = named ? (JSON.parse(data) as { type: string }).type : null;
      return `${type === null ? '' : `event: ${type}\n`}data: ${data}\n\n`;
    })
    .join('');
}

async function run(format: WireFormat, body: string): Promise<StreamOutcome> {
  async function* source(): AsyncGenerator<string> {
    yield body;
  }
  return consumeStream(source(), noop, { format });
}

async function completed(format: WireFormat, body: string): Promise<ChatResponse> {
  const outcome = await run(format, body);
  expect(outcome.status, outcome.status === 'failed' ? outcome.error.message : '').to.equal('completed');
  return (outcome as Extract<StreamOutcome, { status: 'completed' }>).response;
}

/** The metadata fields this file is about. */
function usageAndFinish(metadata: ChatResponseMetadata) {
  const { finishReason, providerFinishReason, tokenUsage, providerUsage, providerMetadata } = metadata;
  return { finishReason, providerFinishReason, tokenUsage, providerUsage, providerMetadata };
}

// ── OpenAI Chat Completions ────────────────────────────────────────────────────────────────────

const chatEnvelope = { id: 'chatcmpl-u1', object: 'chat.completion.chunk', created: 1767225600, model: 'o4-mini', system_fingerprint: 'fp_u1', service_tier: 'default' };
const chatChunk = (choices: object[], extra: object = {}) => ({ ...chatEnvelope, choices, ...extra });
const chatDelta = (delta: object, finishReason: string | null = null) => chatChunk([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
const DONE = '[DONE]';

describe('Usage and finish reasons as the providers bill and send them', () => {
  describe('OpenAI Chat Completions', () => {
    it('reads cached and reasoning tokens from the usage chunk and keeps usage, finish reason and envelope fields as sent', async () => {
      const usage = {
        prompt_tokens: 2100,
        completion_tokens: 900,
        total_tokens: 3000,
        prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 640, audio_tokens: 0 },
      };
      const response = await completed(
        'openai-chat',
        sse([chatDelta({ role: 'assistant', content: '' }), chatDelta({ content: 'Done.' }), chatDelta({}, 'stop'), chatChunk([], { usage }), DONE], false),
      );
      expect(usageAndFinish(response.metadata)).to.deep.equal({
        finishReason: 'STOP',
        providerFinishReason: 'stop',
        tokenUsage: {
          inputTokenCount: 2100,
          outputTokenCount: 900,
          totalTokenCount: 3000,
          cacheReadInputTokenCount: 1920,
          cacheWriteInputTokenCount: null,
          reasoningTokenCount: 640,
        },
        providerUsage: {
          prompt_tokens: 2100,
          completion_tokens: 900,
          total_tokens: 3000,
          prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 640, audio_tokens: 0 },
        },
        providerMetadata: { created: 1767225600, system_fingerprint: 'fp_u1', service_tier: 'default' },
      });
    });

    it('maps content_filter to CONTENT_FILTER; without a usage chunk the usage is null', async () => {
      const response = await completed('openai-chat', sse([chatDelta({ content: 'I can' }), chatDelta({}, 'content_filter'), DONE], false));
      expect(usageAndFinish(response.metadata)).to.deep.include({ finishReason: 'CONTENT_FILTER', providerFinishReason: 'content_filter', tokenUsage: null, providerUsage: null });
    });

    it('reports LENGTH for a length stop even when a tool call was made', async () => {
      const call = { index: 0, id: 'call_u1', type: 'function', function: { name: 'lookup', arguments: '{"q":"par' } };
      const response = await completed('openai-chat', sse([chatDelta({ tool_calls: [call] }), chatDelta({}, 'length'), DONE], false));
      expect([response.metadata.finishReason, response.metadata.providerFinishReason]).to.deep.equal(['LENGTH', 'length']);
    });

    it('reports OTHER for tool_calls when no call completed (a call that never got a name is none)', async () => {
      const nameless = { index: 0, id: 'call_u2', type: 'function', function: { arguments: '{}' } };
      const response = await completed('openai-chat', sse([chatDelta({ tool_calls: [nameless] }), chatDelta({}, 'tool_calls'), DONE], false));
      expect([response.metadata.finishReason, response.metadata.providerFinishReason]).to.deep.equal(['OTHER', 'tool_calls']);
    });
  });

  // ── OpenAI Responses ───────────────────────────────────────────────────────────────────────

  describe('OpenAI Responses', () => {
    const created = {
      type: 'response.created',
      sequence_number: 0,
      response: { id: 'resp_u1', object: 'response', created_at: 1767225600, status: 'in_progress', model: 'gpt-5-mini', output: [], usage: null },
    };

    it('maps response.incomplete for max_output_tokens to LENGTH, with cached and reasoning tokens', async () => {
      const response = await completed(
        'openai-responses',
        sse(
          [
            created,
            { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_u1', output_index: 1, content_index: 0, delta: 'The answer is' },
            {
              type: 'response.incomplete',
              sequence_number: 2,
              response: {
                id: 'resp_u1',
                object: 'response',
                created_at: 1767225600,
                status: 'incomplete',
                incomplete_details: { reason: 'max_output_tokens' },
                model: 'gpt-5-mini',
                output: [{ id: 'msg_u1', type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', text: 'The answer is', annotations: [] }] }],
                service_tier: 'default',
                usage: { input_tokens: 1500, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 600, output_tokens_details: { reasoning_tokens: 512 }, total_tokens: 2100 },
              },
            },
          ],
          true,
        ),
      );
      expect(usageAndFinish(response.metadata)).to.deep.equal({
        finishReason: 'LENGTH',
        providerFinishReason: 'max_output_tokens',
        tokenUsage: {
          inputTokenCount: 1500,
          outputTokenCount: 600,
          totalTokenCount: 2100,
          cacheReadInputTokenCount: 1024,
          cacheWriteInputTokenCount: null,
          reasoningTokenCount: 512,
        },
        providerUsage: { input_tokens: 1500, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 600, output_tokens_details: { reasoning_tokens: 512 }, total_tokens: 2100 },
        providerMetadata: { created_at: 1767225600, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, service_tier: 'default' },
      });
    });

    it('reports TOOL_EXECUTION with provider finish reason "completed" for a response that completed a function call', async () => {
      const item = { id: 'fc_u1', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_u1', name: 'lookup' };
      const response = await completed(
        'openai-responses',
        sse(
          [
            created,
            { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item },
            { type: 'response.function_call_arguments.delta', sequence_number: 2, item_id: 'fc_u1', output_index: 0, delta: '{"q":"x"}' },
            { type: 'response.function_call_arguments.done', sequence_number: 3, item_id: 'fc_u1', output_index: 0, arguments: '{"q":"x"}' },
            { type: 'response.output_item.done', sequence_number: 4, output_index: 0, item: { ...item, status: 'completed', arguments: '{"q":"x"}' } },
            {
              type: 'response.completed',
              sequence_number: 5,
              response: {
                id: 'resp_u1',
                object: 'response',
                status: 'completed',
                model: 'gpt-5-mini',
                output: [],
                usage: { input_tokens: 80, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 100 },
              },
            },
          ],
          true,
        ),
      );
      expect(usageAndFinish(response.metadata)).to.deep.include({
        finishReason: 'TOOL_EXECUTION',
        providerFinishReason: 'completed',
        tokenUsage: { inputTokenCount: 80, outputTokenCount: 20, totalTokenCount: 100, cacheReadInputTokenCount: 0, cacheWriteInputTokenCount: null, reasoningTokenCount: 0 },
      });
    });
  });

  // ── Anthropic Messages ─────────────────────────────────────────────────────────────────────

  describe('Anthropic Messages', () => {
    const start = (usage: object) => ({
      type: 'message_start',
      message: { id: 'msg_u1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage },
    });
    const textBlock = [
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi.' } },
      { type: 'content_block_stop', index: 0 },
    ];
    const stop = { type: 'message_stop' };
    const messageDelta = (delta: object, usage: object) => ({ type: 'message_delta', delta, usage });

    it('counts cache writes and reads as input and keeps the merged usage object as sent', async () => {
      const response = await completed(
        'anthropic',
        sse(
          [
            start({ input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30000, output_tokens: 1, service_tier: 'standard' }),
            ...textBlock,
            messageDelta({ stop_reason: 'end_turn', stop_sequence: null }, { output_tokens: 410 }),
            stop,
          ],
          true,
        ),
      );
      expect(usageAndFinish(response.metadata)).to.deep.equal({
        finishReason: 'STOP',
        providerFinishReason: 'end_turn',
        tokenUsage: {
          inputTokenCount: 32060,
          outputTokenCount: 410,
          totalTokenCount: 32470,
          cacheReadInputTokenCount: 30000,
          cacheWriteInputTokenCount: 2048,
          reasoningTokenCount: null,
        },
        providerUsage: { input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30000, output_tokens: 410, service_tier: 'standard' },
        providerMetadata: { stop_sequence: null },
      });
    });

    it('maps pause_turn to OTHER and keeps the container from the message_delta', async () => {
      const container = { id: 'container_u1', expires_at: '2026-01-01T00:05:00Z' };
      const response = await completed(
        'anthropic',
        sse([start({ input_tokens: 20, output_tokens: 1 }), ...textBlock, messageDelta({ stop_reason: 'pause_turn', stop_sequence: null, container }, { output_tokens: 30 }), stop], true),
      );
      expect(usageAndFinish(response.metadata)).to.deep.equal({
        finishReason: 'OTHER',
        providerFinishReason: 'pause_turn',
        tokenUsage: { inputTokenCount: 20, outputTokenCount: 30, totalTokenCount: 50, cacheReadInputTokenCount: null, cacheWriteInputTokenCount: null, reasoningTokenCount: null },
        providerUsage: { input_tokens: 20, output_tokens: 30 },
        providerMetadata: { stop_sequence: null, container: { id: 'container_u1', expires_at: '2026-01-01T00:05:00Z' } },
      });
    });

    it('maps refusal to CONTENT_FILTER with its stop_details, and keeps a reported thinking_tokens of 0', async () => {
      const stopDetails = { type: 'refusal', category: 'cyber', explanation: 'Blocked by policy.' };
      const response = await completed(
        'anthropic',
        sse(
          [
            start({ input_tokens: 18, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 }),
            messageDelta({ stop_reason: 'refusal', stop_sequence: null, stop_details: stopDetails }, { output_tokens: 5, output_tokens_details: { thinking_tokens: 0 } }),
            stop,
          ],
          true,
        ),
      );
      expect(usageAndFinish(response.metadata)).to.deep.equal({
        finishReason: 'CONTENT_FILTER',
        providerFinishReason: 'refusal',
        tokenUsage: { inputTokenCount: 18, outputTokenCount: 5, totalTokenCount: 23, cacheReadInputTokenCount: 0, cacheWriteInputTokenCount: 0, reasoningTokenCount: 0 },
        providerUsage: { input_tokens: 18, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5, output_tokens_details: { thinking_tokens: 0 } },
        providerMetadata: { stop_sequence: null, stop_details: { type: 'refusal', category: 'cyber', explanation: 'Blocked by policy.' } },
      });
    });

    it('maps max_tokens to LENGTH although a tool call was streaming', async () => {
      const response = await completed(
        'anthropic',
        sse(
          [
            start({ input_tokens: 450, output_tokens: 1 }),
            { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_u1', name: 'weather', input: {} } },
            { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } },
            messageDelta({ stop_reason: 'max_tokens', stop_sequence: null }, { output_tokens: 124 }),
            stop,
          ],
          true,
        ),
      );
      expect([response.metadata.finishReason, response.metadata.providerFinishReason]).to.deep.equal(['LENGTH', 'max_tokens']);
    });

    it('gives a stream cut after message_start a partial with the usage reported so far and no finish reason', async () => {
      const body = sse([start({ input_tokens: 12, cache_read_input_tokens: 100, output_tokens: 1 }), ...textBlock], true);
      const outcome = await run('anthropic', body);
      expect(outcome.status).to.equal('failed');
      const partial = (outcome as Extract<StreamOutcome, { status: 'failed' }>).partial;
      expect(usageAndFinish(partial.metadata)).to.deep.equal({
        finishReason: null,
        providerFinishReason: null,
        tokenUsage: { inputTokenCount: 112, outputTokenCount: 1, totalTokenCount: 113, cacheReadInputTokenCount: 100, cacheWriteInputTokenCount: null, reasoningTokenCount: null },
        providerUsage: { input_tokens: 12, cache_read_input_tokens: 100, output_tokens: 1 },
        providerMetadata: { stop_sequence: null },
      });
    });

    it('has no provider finish reason when an error event ends the stream after a stop_reason', async () => {
      const error = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
      const outcome = await run('anthropic', sse([start({ input_tokens: 3, output_tokens: 1 }), messageDelta({ stop_reason: 'end_turn' }, { output_tokens: 2 }), error], true));
      expect(outcome.status).to.equal('failed');
      const { metadata } = (outcome as Extract<StreamOutcome, { status: 'failed' }>).partial;
      expect([metadata.finishReason, metadata.providerFinishReason]).to.deep.equal([null, null]);
    });
  });

  // ── Gemini ─────────────────────────────────────────────────────────────────────────────────

  describe('Gemini', () => {
    const envelope = { modelVersion: 'gemini-2.5-flash', responseId: 'g-u1' };

    it('adds toolUsePromptTokenCount to the input and thoughts to the output, and keeps grounding and safety ratings', async () => {
      const last = {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Sunny.' }] },
            finishReason: 'STOP',
            index: 0,
            groundingMetadata: { webSearchQueries: ['weather paris'] },
            safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
          },
        ],
        usageMetadata: { promptTokenCount: 40, toolUsePromptTokenCount: 160, cachedContentTokenCount: 32, candidatesTokenCount: 8, thoughtsTokenCount: 12, totalTokenCount: 220 },
        ...envelope,
      };
      const response = await completed(
        'gemini',
        sse(
          [
            {
              candidates: [{ content: { role: 'model', parts: [{ text: 'Checking.', thought: true }] }, index: 0 }],
              usageMetadata: { promptTokenCount: 40, totalTokenCount: 40 },
              ...envelope,
              createTime: '2026-01-01T00:00:00Z',
            },
            last,
          ],
          false,
        ),
      );
      expect(usageAndFinish(response.metadata)).to.deep.equal({
        finishReason: 'STOP',
        providerFinishReason: 'STOP',
        tokenUsage: { inputTokenCount: 200, outputTokenCount: 20, totalTokenCount: 220, cacheReadInputTokenCount: 32, cacheWriteInputTokenCount: null, reasoningTokenCount: 12 },
        providerUsage: { promptTokenCount: 40, toolUsePromptTokenCount: 160, cachedContentTokenCount: 32, candidatesTokenCount: 8, thoughtsTokenCount: 12, totalTokenCount: 220 },
        providerMetadata: {
          modelVersion: 'gemini-2.5-flash',
          responseId: 'g-u1',
          createTime: '2026-01-01T00:00:00Z',
          groundingMetadata: { webSearchQueries: ['weather paris'] },
          safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
        },
      });
    });

    it('maps SAFETY to CONTENT_FILTER and MAX_TOKENS to LENGTH even after a function call', async () => {
      const safety = await completed(
        'gemini',
        sse([{ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'SAFETY' }], usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 }, ...envelope }], false),
      );
      expect(usageAndFinish(safety.metadata)).to.deep.include({
        finishReason: 'CONTENT_FILTER',
        providerFinishReason: 'SAFETY',
        tokenUsage: { inputTokenCount: 5, outputTokenCount: null, totalTokenCount: 5, cacheReadInputTokenCount: null, cacheWriteInputTokenCount: null, reasoningTokenCount: null },
      });
      const length = await completed(
        'gemini',
        sse(
          [
            { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'x' } } }] } }], ...envelope },
            { candidates: [{ content: { role: 'model', parts: [{ text: 'And' }] }, finishReason: 'MAX_TOKENS' }], ...envelope },
          ],
          false,
        ),
      );
      expect([length.metadata.finishReason, length.metadata.providerFinishReason]).to.deep.equal(['LENGTH', 'MAX_TOKENS']);
    });
  });

  // ── Ollama ─────────────────────────────────────────────────────────────────────────────────

  describe('Ollama', () => {
    it('maps done_reason length to LENGTH, keeps counts and timings as the usage object and created_at as metadata', async () => {
      const body = [
        '{"model":"llama3.2","created_at":"2026-01-01T00:00:00.1Z","message":{"role":"assistant","content":"Once"},"done":false}',
        '{"model":"llama3.2","created_at":"2026-01-01T00:00:00.2Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"length","total_duration":5000000,"load_duration":1000000,"prompt_eval_count":26,"prompt_eval_duration":2000000,"eval_count":64,"eval_duration":1500000}',
        '',
      ].join('\n');
      const response = await completed('ollama', body);
      expect(usageAndFinish(response.metadata)).to.deep.equal({
        finishReason: 'LENGTH',
        providerFinishReason: 'length',
        tokenUsage: { inputTokenCount: 26, outputTokenCount: 64, totalTokenCount: 90, cacheReadInputTokenCount: null, cacheWriteInputTokenCount: null, reasoningTokenCount: null },
        providerUsage: { total_duration: 5000000, load_duration: 1000000, prompt_eval_count: 26, prompt_eval_duration: 2000000, eval_count: 64, eval_duration: 1500000 },
        providerMetadata: { created_at: '2026-01-01T00:00:00.2Z' },
      });
    });
  });

  // ── Hostile values ─────────────────────────────────────────────────────────────────────────

  describe('values copied from the wire', () => {
    it('keep __proto__ keys as own keys of the usage and metadata objects, and write to no prototype', async () => {
      const chunk =
        '{"candidates":[{"content":{"role":"model","parts":[{"text":"x"}]},"finishReason":"STOP","__proto__":{"polluted":"candidate"}}],' +
        '"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1,"totalTokenCount":2,"__proto__":{"polluted":"usage"}},"__proto__":{"polluted":"chunk"},"responseId":"g-p"}';
      const gemini = await completed('gemini', sse([chunk], false));
      const anthropic = await completed(
        'anthropic',
        sse(
          [
            '{"type":"message_start","message":{"id":"m","model":"c","usage":{"input_tokens":1,"output_tokens":1,"__proto__":{"polluted":"start"}}}}',
            '{"type":"message_delta","delta":{"stop_reason":"end_turn","__proto__":{"polluted":"delta"}},"usage":{"output_tokens":2,"__proto__":{"polluted":"end"}}}',
            '{"type":"message_stop"}',
          ],
          true,
        ),
      );
      const own = (value: object | null, key: string): unknown => (value === null ? undefined : Object.getOwnPropertyDescriptor(value, key)?.value);
      expect({
        geminiUsage: own(gemini.metadata.providerUsage, '__proto__'),
        geminiMetadata: own(gemini.metadata.providerMetadata, '__proto__'),
        anthropicUsage: own(anthropic.metadata.providerUsage, '__proto__'),
        anthropicMetadata: own(anthropic.metadata.providerMetadata, '__proto__'),
      }).to.deep.equal({
        geminiUsage: { polluted: 'usage' },
        geminiMetadata: { polluted: 'candidate' },
        anthropicUsage: { polluted: 'end' },
        anthropicMetadata: { polluted: 'delta' },
      });
      for (const value of [gemini.metadata.providerUsage, gemini.metadata.providerMetadata, anthropic.metadata.providerUsage, anthropic.metadata.providerMetadata]) {
        expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
        expect((value as Record<string, unknown>).polluted).to.equal(undefined);
      }
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('are deep-frozen: changing the metadata throws', async () => {
      const line = { model: 'm', created_at: 't', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 1, eval_count: 2 };
      const response = await completed('ollama', `${JSON.stringify(line)}\n`);
      const usage = response.metadata.providerUsage as Record<string, unknown>;
      expect(() => {
        usage.eval_count = 99;
      }).to.throw(TypeError);
      expect([Object.isFrozen(response.metadata), Object.isFrozen(response.metadata.tokenUsage), Object.isFrozen(response.metadata.providerMetadata)]).to.deep.equal([true, true, true]);
    });

    it('copy any nesting depth without overflowing the stack, and the CLI --json view prints it (isolated)', async function () {
      this.timeout(90_000);
      const script = `
        const { consumeStream } = require(${JSON.stringify(require.resolve('../../lib/driver/consume-stream'))});
        const { JsonView } = require(${JSON.stringify(require.resolve('../../lib/cli/json-view'))});
        const D = 100000;
        const deep = '{"a":'.repeat(D) + '1' + '}'.repeat(D);
        const body = 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"x"}]},"finishReason":"STOP","groundingMetadata":' + deep + '}],"responseId":"g"}\\n\\n';
        (async () => {
          const lines = [];
          const view = new JsonView((text) => lines.push(text));
          async function* source() { yield body; }
          const outcome = await consumeStream(source(), { onCompleteResponse: (r) => view.onCompleteResponse(r), onError: (e) => lines.push('error ' + e.message) }, { format: 'gemini' });
          let depth = 0;
          let node = outcome.status === 'completed' ? outcome.response.metadata.providerMetadata.groundingMetadata : null;
          while (node !== null && typeof node === 'object') { depth++; node = node.a; }
          const printed = lines.length === 1 && lines[0].includes('"groundingMetadata":' + deep + '}');
          console.log(JSON.stringify({ status: outcome.status, depth, printed }));
        })();
      `;
      const result = await runIsolated(script, { maxOldSpaceMb: 256, timeoutMs: 60_000 });
      expect(result.stderr).to.not.match(/RangeError|Maximum call stack/);
      expect(JSON.parse(result.stdout.trim().split('\n').pop() ?? 'null')).to.deep.equal({ status: 'completed', depth: 100000, printed: true });
    });
  });
});
