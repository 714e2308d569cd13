import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import { openTelemetryListener } from '../../lib/otel';
import { trackedSource } from '../support/chunk-sources';
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

async function costOf(deltas: number): Promise<{ otelCalls: number; clockReads: number }> {
  const sdk = registerSdk();
  const otel = { calls: 0 };
  const listener = openTelemetryListener({
    tracerProvider: counting(trace.getTracerProvider() as TracerProvider, otel),
    meterProvider: counting(metrics.getMeterProvider() as MeterProvider, otel),
  });
  // Warm the instruments once, so both runs count the same work.
  await consumeStream(trackedSource(chatBody(1)), { onCompleteResponse: () => undefined, onError: () => undefined }, { format: 'openai-chat', listeners: [listener] });
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
    outcome = await consumeStream(trackedSource(chatBody(deltas)), { onCompleteResponse: () => undefined, onError: () => undefined }, { format: 'openai-chat', listeners: [listener] });
  } finally {
    performance.now = performanceNow;
    Date.now = dateNow;
    await sdk.shutdown();
  }
  expect(outcome.status).to.equal('completed');
  return { otelCalls: otel.calls, clockReads: clock.reads };
}

describe('the OpenTelemetry listener per token', function () {
  this.timeout(60_000);

  it('makes the same OpenTelemetry calls and clock reads for 10 deltas as for 100 000', async () => {
    const small = await costOf(10);
    const large = await costOf(100_000);
    expect(small.otelCalls).to.be.above(0);
    expect(large).to.deep.equal(small);
  });
});
