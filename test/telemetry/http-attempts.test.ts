import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, SamplingDecision, type ReadableSpan, type Sampler } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { attemptUrl } from '../../lib/clients/attempt-url';
import { consumeStream } from '../../lib/driver/consume-stream';
import { openTelemetryListener } from '../../lib/otel';
import type { ChatModelHttpAttemptContext, ChatModelListener, ChatModelRetryContext, HttpAttemptResult } from '../../lib/telemetry/chat-model-listener';
import { trackedSource } from '../support/chunk-sources';
import { streamWithClient } from '../support/http-clients';
import { TRANSCRIPTS } from '../support/transcripts';
import { loggingHandler } from './ends';
import { registerSdk, type OtelSdk } from './otel-harness';

// SPEC §14: "HTTP attempts as its children". Each request on the wire (the first, a retry, a
// redirect hop) is one CLIENT span under the stream's span, named and attributed as the HTTP
// client span conventions say (the attempt's URL, method, server, status, error.type and
// http.request.resend_count); each retry is a partstream.retry event on the stream's span.

const CHAT = TRANSCRIPTS['openai-chat'];
const URL_FULL = 'https://api.openai.com/v1/chat/completions';
const ok = (): Response => new Response(CHAT, { headers: { 'content-type': 'text/event-stream' } });

/** A fetch that answers with `responses` in turn (a function throws or builds its answer). */
function scripted(responses: readonly (() => Response | Promise<Response>)[], seen: { active: (Span | undefined)[] } = { active: [] }): typeof fetch {
  let call = 0;
  return async () => {
    seen.active.push(trace.getActiveSpan());
    const next = responses[Math.min(call++, responses.length - 1)] as () => Response | Promise<Response>;
    return next();
  };
}

function spanId(span: ReadableSpan | Span | undefined): string | undefined {
  return span?.spanContext().spanId;
}

describe('HTTP attempts and retries (SPEC §14)', () => {
  let sdk: OtelSdk | undefined;
  afterEach(async () => {
    await sdk?.shutdown();
    sdk = undefined;
  });

  it('makes each attempt a CLIENT span under the stream span, and each retry a partstream.retry event', async () => {
    sdk = registerSdk();
    const seen = { active: [] as (Span | undefined)[] };
    const outcome = await streamWithClient('openai-chat', loggingHandler([]), {
      listeners: [openTelemetryListener()],
      maxRetries: 1,
      fetch: scripted([() => new Response('', { status: 503, headers: { 'retry-after-ms': '2' } }), ok], seen),
    });
    expect(outcome.status).to.equal('completed');
    const [stream] = sdk.streams();
    const attempts = sdk.attempts();
    const base = { 'http.request.method': 'POST', 'url.full': URL_FULL, 'server.address': 'api.openai.com', 'server.port': 443 };
    expect(attempts.map((span) => ({ name: span.name, kind: span.kind, parent: span.parentSpanContext?.spanId, attributes: span.attributes, status: span.status }))).to.deep.equal([
      { name: 'POST', kind: SpanKind.CLIENT, parent: spanId(stream), attributes: { ...base, 'http.response.status_code': 503, 'error.type': '503' }, status: { code: SpanStatusCode.ERROR } },
      {
        name: 'POST',
        kind: SpanKind.CLIENT,
        parent: spanId(stream),
        attributes: { ...base, 'http.request.resend_count': 1, 'http.response.status_code': 200 },
        status: { code: SpanStatusCode.UNSET },
      },
    ]);
    expect(attempts.every((span) => span.spanContext().traceId === stream!.spanContext().traceId)).to.equal(true);
    // The retry succeeded: no error on the stream (retried errors are not recorded), one retry event.
    expect([stream!.status.code, stream!.attributes['error.type'], stream!.attributes['partstream.http.retry_count']]).to.deep.equal([SpanStatusCode.UNSET, undefined, 1]);
    expect(stream!.events.map((event) => [event.name, event.attributes])).to.deep.equal([
      ['partstream.retry', { 'partstream.retry.number': 1, 'error.type': '503', 'partstream.retry.delay': 0.002, 'http.response.status_code': 503 }],
      ['partstream.first_chunk', {}],
    ]);
    // Each fetch ran with its own attempt's span active, so an instrumented fetch nests under it.
    expect(seen.active.map(spanId)).to.deep.equal(attempts.map(spanId));
  });

  it('ends each attempt when its response headers arrive, inside the stream span', async () => {
    sdk = registerSdk();
    await streamWithClient('openai-chat', loggingHandler([]), { listeners: [openTelemetryListener()], fetch: scripted([ok]) });
    const [stream] = sdk.streams();
    const [attempt] = sdk.attempts();
    const nanos = (time: readonly [number, number]): bigint => BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);
    expect(nanos(attempt!.startTime) >= nanos(stream!.startTime)).to.equal(true);
    expect(nanos(attempt!.endTime) <= nanos(stream!.endTime)).to.equal(true);
  });

  it('makes a followed redirect hop an attempt of its own, resent with http.request.resend_count', async () => {
    sdk = registerSdk();
    const outcome = await streamWithClient('openai-chat', loggingHandler([]), {
      listeners: [openTelemetryListener()],
      fetch: scripted([() => new Response(null, { status: 307, headers: { location: '/v2/chat?alt=sse&key=AIzaSecret' } }), ok]),
    });
    expect(outcome.status).to.equal('completed');
    expect(sdk.attempts().map((span) => [span.attributes['url.full'], span.attributes['http.response.status_code'], span.attributes['http.request.resend_count'], span.status.code])).to.deep.equal([
      [URL_FULL, 307, undefined, SpanStatusCode.UNSET],
      ['https://api.openai.com/v2/chat?alt=sse&key=REDACTED', 200, 1, SpanStatusCode.UNSET],
    ]);
    // A redirect is not a retry.
    expect(sdk.streams()[0]!.events.map((event) => event.name)).to.deep.equal(['partstream.first_chunk']);
  });

  it('records a connection error as the attempt error.type (the code), with no status code', async () => {
    sdk = registerSdk();
    const reset = (): never => {
      throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    };
    const outcome = await streamWithClient('openai-chat', loggingHandler([]), { listeners: [openTelemetryListener()], fetch: scripted([reset]) });
    expect(outcome.status).to.equal('failed');
    const [attempt] = sdk.attempts();
    expect([attempt!.attributes['error.type'], attempt!.attributes['http.response.status_code'], attempt!.status.code]).to.deep.equal(['UND_ERR_SOCKET', undefined, SpanStatusCode.ERROR]);
    expect(sdk.streams()[0]!.attributes['error.type']).to.equal('network');
  });

  it('ends an attempt cut by a cancel once, before the stream span, as cancelled', async () => {
    sdk = registerSdk();
    const abort = new AbortController();
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        setTimeout(() => abort.abort(), 5);
      });
    const outcome = await streamWithClient('openai-chat', loggingHandler([]), { listeners: [openTelemetryListener()], fetch: hanging, signal: abort.signal });
    expect(outcome.status).to.equal('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sdk.finished().map((span) => [span.name, span.attributes['error.type']])).to.deep.equal([
      ['POST', 'cancelled'],
      ['chat gpt-test', 'cancelled'],
    ]);
  });

  it('tells listeners of every attempt and retry in order, the scopes wrapping each send and ended once', async () => {
    const log: unknown[] = [];
    const listener: ChatModelListener = {
      onRequest: (ctx) => void log.push(['request', ctx.streamId.length > 0]),
      onHttpAttempt: (ctx: ChatModelHttpAttemptContext) => {
        log.push(['attempt', ctx.resendCount, ctx.method, ctx.url, ctx.provider]);
        return {
          wrap: (send) => {
            log.push(['wrap', ctx.resendCount]);
            return send();
          },
          end: (result: HttpAttemptResult) => void log.push(['end', ctx.resendCount, result]),
        };
      },
      onRetry: (ctx: ChatModelRetryContext) => void log.push(['retry', ctx.retry, ctx.status, ctx.errorType, ctx.delayMs]),
      onResponse: () => void log.push(['response']),
    };
    let calls = 0;
    const fetch: typeof globalThis.fetch = async () => {
      log.push(['fetch', calls]);
      switch (calls++) {
        case 0:
          return new Response('', { status: 429, headers: { 'retry-after-ms': '1' } });
        case 1:
          return new Response(null, { status: 308, headers: { location: URL_FULL } });
        default:
          return ok();
      }
    };
    await streamWithClient('openai-chat', loggingHandler([]), { listeners: [listener], fetch, maxRetries: 2 });
    expect(log).to.deep.equal([
      ['request', true],
      ['attempt', 0, 'POST', URL_FULL, 'openai'],
      ['wrap', 0],
      ['fetch', 0],
      ['end', 0, { status: 429, errorType: '429' }],
      ['retry', 1, 429, '429', 1],
      ['attempt', 1, 'POST', URL_FULL, 'openai'],
      ['wrap', 1],
      ['fetch', 1],
      ['end', 1, { status: 308, errorType: null }],
      ['attempt', 2, 'POST', URL_FULL, 'openai'],
      ['wrap', 2],
      ['fetch', 2],
      ['end', 2, { status: 200, errorType: null }],
      ['response'],
    ]);
  });

  it('sends each request exactly once whatever a scope does: throws, never calls send, calls it twice', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const scopes: ChatModelListener[] = [
        {
          onHttpAttempt: () => ({
            wrap: () => {
              throw new Error('wrap bug');
            },
            end: () => {
              throw new Error('end bug');
            },
          }),
        },
        { onHttpAttempt: () => ({ wrap: () => undefined }) },
        { onHttpAttempt: () => ({ wrap: (send) => [send(), send()] }) },
        {
          onHttpAttempt: () => {
            throw new Error('hook bug');
          },
        },
      ];
      let calls = 0;
      const plain = await streamWithClient('openai-chat', loggingHandler([]), { fetch: async () => ok() });
      const outcome = await streamWithClient('openai-chat', loggingHandler([]), { listeners: scopes, fetch: async () => (calls++, ok()) });
      expect(calls).to.equal(1);
      expect(outcome).to.deep.equal(plain);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((message) => message.includes('onHttpAttempt'))).to.have.length(2);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('hides secrets in url.full: credentials, fragment, secret-looking query values and the key itself', () => {
    const key = 'sk-live-0123456789abcdef';
    expect(attemptUrl(`https://user:pw@api.example.com/v1/${key}/x?alt=sse&key=AIza123&api-version=2024-10-21&sig=abc&access_token=t#frag`, [key])).to.equal(
      'https://api.example.com/v1/REDACTED/x?alt=sse&key=REDACTED&api-version=2024-10-21&sig=REDACTED&access_token=REDACTED',
    );
    expect(attemptUrl('https://api.example.com/v1/chat', [key])).to.equal('https://api.example.com/v1/chat');
  });
});

describe("format 'auto' (SPEC §14: provider attributes at span start)", () => {
  it('starts the span with the recognised provider, as the sampler sees it, and tells onFirstChunk the recognised format', async () => {
    const sampled: Record<string, unknown>[] = [];
    const sampler: Sampler = {
      shouldSample: (_context, _traceId, _name, _kind, attributes) => {
        sampled.push({ ...attributes });
        return { decision: SamplingDecision.RECORD_AND_SAMPLED };
      },
      toString: () => 'recording sampler',
    };
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor(spans)] });
    const firstChunk: [string, string][] = [];
    const outcome = await consumeStream(trackedSource([TRANSCRIPTS.anthropic]), loggingHandler([]), {
      listeners: [openTelemetryListener({ tracerProvider }), { onFirstChunk: (ctx) => void firstChunk.push([ctx.format, ctx.provider]) }],
    });
    expect(outcome.status).to.equal('completed');
    expect(sampled).to.deep.equal([{ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic' }]);
    expect(firstChunk).to.deep.equal([['anthropic', 'anthropic']]);
    const [span] = spans.getFinishedSpans();
    expect([span!.attributes['gen_ai.provider.name'], span!.attributes['partstream.stream.format'], span!.events.map((event) => event.name)]).to.deep.equal([
      'anthropic',
      'anthropic',
      ['partstream.first_chunk'],
    ]);
    await tracerProvider.shutdown();
  });

  it('still ends one span for an auto stream that fails before its format is known', async () => {
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const abort = new AbortController();
    abort.abort();
    const outcome = await consumeStream(trackedSource([TRANSCRIPTS.gemini]), loggingHandler([]), { signal: abort.signal, listeners: [openTelemetryListener({ tracerProvider })] });
    expect(outcome.status).to.equal('cancelled');
    expect(spans.getFinishedSpans().map((span) => [span.name, span.attributes['error.type']])).to.deep.equal([['chat', 'cancelled']]);
    await tracerProvider.shutdown();
  });
});
