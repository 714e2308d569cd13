import { context, metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { expect } from 'chai';
import { consumeStream, type StreamOutcome } from '../../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { openTelemetryListener } from '../../lib/otel';
import type { ChatModelListener } from '../../lib/telemetry/chat-model-listener';
import { trackedSource } from '../support/chunk-sources';
import { streamWithClient } from '../support/http-clients';
import { registerSdk } from './otel-harness';

// SPEC §14: nothing per token. The OpenTelemetry calls and the clock reads of a stream are the
// same for 10 deltas and for 100 000.

/** An OpenAI Chat body with `deltas` one-character text deltas, in chunks of 1 000 frames. */
function chatBody(deltas: number): string[] {
  const frame = (delta: unknown, extra = ''): string =>
    `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":${JSON.stringify(delta)},"finish_reason":${extra === '' ? 'null' : `"${extra}"`}}]}\n\n`;
  const chunks: string[] = [];
  let chunk = '';
  for (let i = 0; i < deltas; i++) {
    chunk += frame({ content: 'x' });
    if (i % 1000 === 999) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  chunks.push(`${chunk}${frame({}, 'stop')}data: [DONE]\n\n`);
  return chunks;
}

/** Wraps `target` so that every method call on it, and on any object a call returns, counts one. */
function counting<T extends object>(target: T, count: { calls: number }): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        count.calls++;
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(object, args);
        return typeof result === 'object' && result !== null && !(result instanceof Promise) ? counting(result, count) : result;
      };
    },
  });
}

type Run = (chunks: readonly string[], listeners: readonly ChatModelListener[]) => Promise<StreamOutcome>;

const quiet: StreamingChatResponseHandler = { onCompleteResponse: () => undefined, onError: () => undefined };

/** consumeStream over the body. */
const consumed: Run = (chunks, listeners) => consumeStream(trackedSource(chunks), quiet, { format: 'openai-chat', listeners });

/**
 * The OpenAI Chat client: a 503 retried at once, a same-origin redirect, then the body (three
 * attempt spans, one retry event). No idle timeout, whose clock reads are per read, not per token.
 */
const viaClient: Run = (chunks, listeners) => {
  let calls = 0;
  return streamWithClient('openai-chat', quiet, {
    listeners,
    maxRetries: 1,
    idleTimeoutMs: Infinity,
    fetch: async () => {
      switch (calls++) {
        case 0:
          return new Response('', { status: 503, headers: { 'retry-after-ms': '0' } });
        case 1:
          return new Response(null, { status: 307, headers: { location: '/v1/chat/completions' } });
        default: {
          const body = new ReadableStream<string>({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(chunk);
              controller.close();
            },
          }).pipeThrough(new TextEncoderStream());
          return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
        }
      }
    },
  });
};

async function costOf(deltas: number, run: Run): Promise<{ otelCalls: number; clockReads: number; spans: number; events: number }> {
  const sdk = registerSdk();
  const otel = { calls: 0 };
  // The context API's calls (context.with around each fetch, context.active) go to the manager.
  context.disable();
  context.setGlobalContextManager(counting(new AsyncLocalStorageContextManager().enable(), otel));
  const listener = openTelemetryListener({
    tracerProvider: counting(trace.getTracerProvider() as TracerProvider, otel),
    meterProvider: counting(metrics.getMeterProvider() as MeterProvider, otel),
  });
  // Warm the instruments once, so both runs count the same work.
  await run(chatBody(1), [listener]);
  sdk.spans.reset();
  otel.calls = 0;
  const clock = { reads: 0 };
  const performanceNow = performance.now.bind(performance);
  const dateNow = Date.now;
  performance.now = () => {
    clock.reads++;
    return performanceNow();
  };
  Date.now = () => {
    clock.reads++;
    return dateNow();
  };
  let outcome;
  try {
    outcome = await run(chatBody(deltas), [listener]);
  } finally {
    performance.now = performanceNow;
    Date.now = dateNow;
  }
  const finished = sdk.finished();
  await sdk.shutdown();
  expect(outcome.status).to.equal('completed');
  return { otelCalls: otel.calls, clockReads: clock.reads, spans: finished.length, events: finished.reduce((sum, span) => sum + span.events.length, 0) };
}

describe('the OpenTelemetry listener per token', function () {
  this.timeout(60_000);

  it('makes the same OpenTelemetry calls and clock reads for 10 deltas as for 100 000', async () => {
    const small = await costOf(10, consumed);
    const large = await costOf(100_000, consumed);
    expect(small.otelCalls).to.be.above(0);
    expect(large).to.deep.equal(small);
  });

  it('and so through an HTTP client with a retry and a redirect: attempt spans and retry events included', async () => {
    const small = await costOf(10, viaClient);
    const large = await costOf(100_000, viaClient);
    // The stream span and three attempt spans; the retry and first-chunk events.
    expect([small.spans, small.events]).to.deep.equal([4, 2]);
    expect(large).to.deep.equal(small);
  });
});
