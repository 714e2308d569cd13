import { expect } from 'chai';
import { errorType } from '../../lib/telemetry/otel/error-type';
import { bodyFormatNamed } from '../../lib/providers/registry';

/** The `gen_ai.request.*` attributes the format's descriptor reads from a request body (none for an unknown format or a body that is not an object). */
function requestAttributes(format: string, body: unknown): Readonly<Record<string, unknown>> {
  const read = bodyFormatNamed(format)?.telemetry.requestAttributes;
  return read !== undefined && typeof body === 'object' && body !== null ? read(body as Readonly<Record<string, unknown>>) : {};
}
import { captureFromEnv, semconvFromEnv } from '../../lib/telemetry/otel/semconv-names';
import { StreamError } from '../../lib/handler/stream-error';
import { chatResponse, aiMessage, responseMetadata } from '../../lib/handler/values';

const partial = chatResponse(aiMessage([]), responseMetadata({}));

describe('partstream/otel tables', () => {
  it('maps each request shape to the gen_ai.request attributes as sent', () => {
    expect(
      requestAttributes('openai-chat', {
        model: 'm',
        max_tokens: 5,
        max_completion_tokens: 7,
        temperature: 0.2,
        top_p: 0.9,
        stop: 'END',
        n: 2,
        seed: 3,
        response_format: { type: 'json_schema' },
        service_tier: 'flex',
      }),
    ).to.deep.equal({
      'openai.api.type': 'chat_completions',
      'gen_ai.request.max_tokens': 7,
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.request.seed': 3,
      'gen_ai.request.stop_sequences': ['END'],
      'gen_ai.request.choice.count': 2,
      'gen_ai.output.type': 'json',
      'openai.request.service_tier': 'flex',
    });
    expect(requestAttributes('openai-responses', { max_output_tokens: 9, text: { format: { type: 'json_schema' } }, service_tier: 'auto' })).to.deep.equal({
      'openai.api.type': 'responses',
      'gen_ai.request.max_tokens': 9,
      'gen_ai.output.type': 'json',
    });
    expect(requestAttributes('anthropic', { max_tokens: 64, top_k: 5, stop_sequences: ['a', 1, 'b'] })).to.deep.equal({
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.top_k': 5,
      'gen_ai.request.stop_sequences': ['a', 'b'],
    });
    expect(requestAttributes('gemini', { generationConfig: { maxOutputTokens: 10, topK: 4, candidateCount: 1, stopSequences: ['x'], responseMimeType: 'application/json' } })).to.deep.equal({
      'gen_ai.request.max_tokens': 10,
      'gen_ai.request.top_k': 4,
      'gen_ai.request.stop_sequences': ['x'],
      'gen_ai.output.type': 'json',
    });
    expect(requestAttributes('ollama', { options: { num_predict: 12, temperature: 0 }, format: 'json' })).to.deep.equal({
      'gen_ai.request.max_tokens': 12,
      'gen_ai.request.temperature': 0,
      'gen_ai.output.type': 'json',
    });
    expect(requestAttributes('custom', { max_tokens: 1 })).to.deep.equal({});
    expect(requestAttributes('anthropic', null)).to.deep.equal({});
  });

  it('gives the documented error.type for each end', () => {
    const failed = (error: Error) => errorType({ status: 'failed', error, partial });
    expect([
      errorType({ status: 'completed', response: partial }),
      errorType({ status: 'cancelled', partial }),
      failed(new StreamError('http', 'HTTP 429', { status: 429, code: 'rate_limit_exceeded' })),
      failed(new StreamError('provider', 'overloaded', { code: 'overloaded_error' })),
      failed(new StreamError('provider', 'odd', { code: 'has spaces and <html>' })),
      failed(new StreamError('provider', 'none')),
      ...(['truncated', 'malformed', 'format', 'timeout', 'network'] as const).map((kind) => failed(new StreamError(kind, kind))),
      failed(new TypeError('bug')),
    ]).to.deep.equal([null, 'cancelled', '429', 'overloaded_error', 'provider', 'provider', 'truncated', 'malformed', 'format', 'timeout', 'network', '_OTHER']);
  });

  it('reads the semconv mode and content capture from their environment variables', () => {
    expect([undefined, 'http', 'http,gen_ai_latest_experimental', ' gen_ai_latest_experimental '].map(semconvFromEnv)).to.deep.equal(['v1.41', 'v1.41', 'latest', 'latest']);
    expect([undefined, 'true', 'TRUE', 'SPAN_ONLY', 'span_and_event', 'false', 'NO_CONTENT', 'EVENT_ONLY', 'yes'].map(captureFromEnv)).to.deep.equal([
      false,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
