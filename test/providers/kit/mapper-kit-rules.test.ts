import { expect } from 'chai';
import { StreamError } from '../../../lib/handler/stream-error';
import { tokenUsage } from '../../../lib/handler/values';
import { AnthropicMapper } from '../../../lib/providers/anthropic/anthropic-mapper';
import { GeminiMapper } from '../../../lib/providers/gemini/gemini-mapper';
import { OllamaMapper } from '../../../lib/providers/ollama/ollama-mapper';
import { OpenAIChatMapper } from '../../../lib/providers/openai-chat/openai-chat-mapper';
import { OpenAIResponsesMapper } from '../../../lib/providers/openai-responses/openai-responses-mapper';
import type { MapperTarget, StreamMapper } from '../../../lib/providers/stream-mapper';
import type { SseFrame } from '../../../lib/wire/types';
import { runFrames } from '../shared/mapper-harness';

// The rules the provider kit gives every mapper alike: one way to read a provider error, one way
// to check an SSE frame, and the last non-blank id and model. Each case is stated once and run
// through all five mappers in their own wire shapes.

type Wrap = (error: unknown) => SseFrame | Record<string, unknown>;

interface Provider {
  readonly name: string;
  readonly mapper: () => StreamMapper<SseFrame>;
  /** The provider's error event around an error value. */
  readonly wrap: Wrap;
  readonly sse: boolean;
}

const sse = (value: Record<string, unknown>): SseFrame => ({ event: typeof value.type === 'string' ? value.type : null, data: JSON.stringify(value) });

const PROVIDERS: readonly Provider[] = [
  { name: 'openai-chat', mapper: () => new OpenAIChatMapper(), wrap: (error) => sse({ error }), sse: true },
  { name: 'openai-responses', mapper: () => new OpenAIResponsesMapper(), wrap: (error) => sse({ type: 'error', error }), sse: true },
  {
    name: 'openai-responses (response.failed)',
    mapper: () => new OpenAIResponsesMapper(),
    wrap: (error) => sse({ type: 'response.failed', response: { id: 'resp_1', status: 'failed', error } }),
    sse: true,
  },
  { name: 'anthropic', mapper: () => new AnthropicMapper(), wrap: (error) => sse({ type: 'error', error }), sse: true },
  { name: 'gemini', mapper: () => new GeminiMapper(), wrap: (error) => sse({ error }), sse: true },
  // The harness passes the parsed line through as it is (NDJSON has no frame text).
  { name: 'ollama', mapper: () => new OllamaMapper() as StreamMapper<unknown> as StreamMapper<SseFrame>, wrap: (error) => ({ error }), sse: false },
];

/** The one error a run reported, as the fields the rule decides. */
function reported(provider: Provider, error: unknown): unknown[] {
  const event = provider.wrap(error);
  const run = runFrames(provider.mapper(), [event as SseFrame]);
  expect(run.errors, provider.name).to.have.length(1);
  const failure = run.errors[0] as StreamError;
  expect(StreamError.isInstance(failure), provider.name).to.equal(true);
  expect(failure.frame, provider.name).to.equal(provider.sse ? (event as SseFrame).data : undefined);
  return [failure.kind, failure.message, failure.code, failure.status, failure.body];
}

describe('the provider kit: rules every mapper shares', () => {
  describe('a provider error event is read one way by all five mappers', () => {
    const cases: ReadonlyArray<[string, unknown, unknown[]]> = [
      [
        'an error object with message and type',
        { type: 'overloaded_error', message: 'Overloaded' },
        ['provider', 'Overloaded', 'overloaded_error', undefined, { type: 'overloaded_error', message: 'Overloaded' }],
      ],
      [
        'a numeric code (an HTTP status) beside a status name',
        { code: 503, message: 'The model is overloaded', status: 'UNAVAILABLE' },
        ['provider', 'The model is overloaded', 'UNAVAILABLE', 503, { code: 503, message: 'The model is overloaded', status: 'UNAVAILABLE' }],
      ],
      [
        'a string code ahead of the type',
        { code: 'rate_limit_exceeded', type: 'requests', message: 'Slow down' },
        ['provider', 'Slow down', 'rate_limit_exceeded', undefined, { code: 'rate_limit_exceeded', type: 'requests', message: 'Slow down' }],
      ],
      ['an error without a message: its JSON text', { code: 500 }, ['provider', '{"code":500}', undefined, 500, { code: 500 }]],
      ['a blank message and a number that is no HTTP status', { code: 42, message: '  ' }, ['provider', '{"code":42,"message":"  "}', undefined, undefined, { code: 42, message: '  ' }]],
      ['an error that is a text', 'upstream request failed', ['provider', 'upstream request failed', undefined, undefined, 'upstream request failed']],
    ];
    for (const [what, error, expected] of cases) {
      it(what, () => {
        for (const provider of PROVIDERS) expect(reported(provider, error), provider.name).to.deep.equal(expected);
      });
    }

    it('reads a flat error event (the type marks it, no code) the same in Anthropic and Responses streams', () => {
      const flat = { type: 'error', message: 'Gateway overloaded' };
      for (const mapper of [new AnthropicMapper(), new OpenAIResponsesMapper()]) {
        const failure = runFrames(mapper, [sse(flat)]).errors[0] as StreamError;
        expect([failure.message, failure.code, failure.body]).to.deep.equal(['Gateway overloaded', undefined, flat]);
      }
    });

    it('ends every SSE stream at an `event: error` frame whose data is not JSON, its text the message', () => {
      const frame: SseFrame = { event: 'error', data: 'upstream connect error' };
      for (const provider of PROVIDERS.filter((p) => p.sse)) {
        const run = runFrames(provider.mapper(), [frame]);
        const failure = run.errors[0] as StreamError;
        expect([run.returns, failure.kind, failure.message, failure.body, failure.frame], provider.name).to.deep.equal([
          [true],
          'provider',
          'upstream connect error',
          'upstream connect error',
          'upstream connect error',
        ]);
      }
    });
  });

  it('every SSE mapper refuses a value that is not an SSE frame with the same TypeError', () => {
    const target: MapperTarget = { handler: { onCompleteResponse() {}, onError() {} }, handle: { cancel() {}, isCancelled: () => false } };
    for (const provider of PROVIDERS.filter((p) => p.sse)) {
      expect(() => provider.mapper().map(null as unknown as SseFrame, target), provider.name).to.throw(TypeError, 'Expected an SSE frame {event, data} with string data, got null');
    }
  });

  describe('the last non-blank id and model win', () => {
    it('OpenAI Responses: a later snapshot with a blank id and model keeps the earlier ones', () => {
      const created = sse({ type: 'response.created', response: { id: 'resp_1', model: 'gpt-test', status: 'in_progress' } });
      const completed = sse({ type: 'response.completed', response: { id: '', model: ' ', status: 'completed' } });
      const done = runFrames(new OpenAIResponsesMapper(), [created, completed]).steps.at(-1);
      expect(done?.[0]).to.equal('complete');
      expect(done?.[1]).to.deep.include({ id: 'resp_1', modelName: 'gpt-test' });
    });

    it('Gemini: a later chunk with a blank responseId and modelVersion keeps the earlier ones', () => {
      const first = sse({ candidates: [{ content: { parts: [{ text: 'a' }] } }], responseId: 'r1', modelVersion: 'gemini-test' });
      const last = sse({ candidates: [{ content: { parts: [{ text: 'b' }] }, finishReason: 'STOP' }], responseId: '', modelVersion: '' });
      const done = runFrames(new GeminiMapper(), [first, last]).steps.at(-1);
      expect(done?.[1]).to.deep.include({ id: 'r1', modelName: 'gemini-test' });
    });

    it('Ollama: a done line with a blank model keeps the model of the lines before', () => {
      const lines = [
        { model: 'llama-test', message: { content: 'a' }, done: false },
        { model: '', message: { content: '' }, done: true, done_reason: 'stop' },
      ];
      const done = runFrames(new OllamaMapper() as StreamMapper<unknown> as StreamMapper<SseFrame>, lines as unknown as SseFrame[]).steps.at(-1);
      expect(done?.[1]).to.deep.include({ modelName: 'llama-test' });
    });
  });

  describe('one usage rule: a usage that reports any count, a detail included, is usage', () => {
    it('OpenAI Chat: a usage with only cached tokens is kept', () => {
      const chunk = sse({ id: 'c1', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens_details: { cached_tokens: 7 } } });
      const done = runFrames(new OpenAIChatMapper(), [chunk]).steps.at(-1);
      expect(done?.[1]).to.deep.include({ tokenUsage: tokenUsage(null, null, null, { cacheReadInputTokenCount: 7 }) });
    });

    it('OpenAI Responses: a later usage without counts does not replace one with counts', () => {
      const inProgress = sse({ type: 'response.in_progress', response: { id: 'r', status: 'in_progress', usage: { input_tokens: 3, output_tokens: 1 } } });
      const completed = sse({ type: 'response.completed', response: { id: 'r', status: 'completed', usage: {} } });
      const run = runFrames(new OpenAIResponsesMapper(), [inProgress, completed]);
      expect(run.steps.at(-1)?.[1]).to.deep.include({ tokenUsage: tokenUsage(3, 1) });
      expect(run.provider[0].providerUsage).to.deep.equal({ input_tokens: 3, output_tokens: 1 });
    });
  });
});
