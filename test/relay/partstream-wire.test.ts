import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { StreamOutcome } from '../../lib/driver/stream-options';
import { recordedSkipNote } from '../support/recorded-fixtures';
import { bodyRelay } from './support/body-relay';
import { loggingHandler, type LoggedCallback } from './support/callback-log';
import { callbacksUpTo, eventTypes, relayCases } from './support/relay-cases';
import { source } from './support/sources';

/** A viewer's outcome reduced to what must equal the producer's. */
function essence(outcome: StreamOutcome): unknown {
  if (outcome.status === 'completed') return { status: 'completed', response: outcome.response };
  if (outcome.status === 'failed') {
    const error = outcome.error as Error & { kind?: string; code?: string };
    return {
      status: 'failed',
      kind: error.kind,
      code: error.code,
      message: error.message,
      message_: outcome.partial.aiMessage,
      id: outcome.partial.metadata.id,
      model: outcome.partial.metadata.modelName,
    };
  }
  return { status: 'cancelled', partial: outcome.partial.aiMessage };
}

/** The cut points a case is checked at: every one for a short log, else 150 spread evenly (fixed). */
function cutPoints(count: number): number[] {
  if (count <= 300) return Array.from({ length: count + 1 }, (_, k) => k);
  const points = new Set<number>([0, 1, 2, count - 2, count - 1, count]);
  for (let i = 0; i < 150; i++) points.add(Math.floor((i * count) / 150));
  return [...points].sort((a, b) => a - b);
}

describe(`relay wire format partstream v1: a viewer rebuilds the producer's stream${recordedSkipNote('relay wire format')}`, () => {
  for (const testCase of relayCases()) {
    it(`${testCase.name} (${testCase.format}): same callbacks, same final, at every cut point`, async () => {
      const relay = bodyRelay('resp-1', { relayRawEvents: true });
      const producer = loggingHandler();
      const produced = await consumeStream(source(testCase.bytes), producer, { format: testCase.format, relay });
      const body = relay.body();
      const types = eventTypes(relay.events);
      expect(types[0]).to.equal('start');
      expect(['complete', 'error', 'cancelled']).to.include(types[types.length - 1]);
      expect(types.slice(1, -1).filter((t) => t === 'complete' || t === 'error' || t === 'cancelled')).to.deep.equal([]);

      const viewer = loggingHandler();
      const viewed = await consumeStream(source(body), viewer, { format: 'partstream' });
      expect(viewer.log).to.deep.equal(producer.log);
      expect(essence(viewed)).to.deep.equal(essence(produced));
      // `auto` recognises the body by its first event.
      const auto = loggingHandler();
      await consumeStream(source(body), auto, { format: 'auto' });
      expect(auto.log).to.deep.equal(producer.log);

      const terminal = producer.log[producer.log.length - 1] as LoggedCallback;
      for (const k of cutPoints(relay.events.length)) {
        const late = loggingHandler();
        const outcome = await consumeStream(source(body), late, { format: 'partstream', fromSequence: k });
        const expected = k >= relay.events.length ? [terminal] : producer.log.slice(callbacksUpTo(relay.events, k));
        expect(late.log, `from sequence ${k}`).to.deep.equal(expected);
        expect(essence(outcome), `from sequence ${k}`).to.deep.equal(essence(produced));
      }
    });
  }
});
