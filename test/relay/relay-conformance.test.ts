import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { StreamOutcome } from '../../lib/driver/stream-options';
import { memoryStore } from '../../lib/relay/memory-store';
import { openRelay } from '../../lib/relay/open-relay';
import { relay } from '../../lib/relay/relay-response';
import { recordedSkipNote } from '../support/recorded-fixtures';
import { loggingHandler } from './support/callback-log';
import { relayCases } from './support/relay-cases';
import { source } from './support/sources';

const PREFIX = 'retry: 1000\n: open\n\n';

function essence(outcome: StreamOutcome): unknown {
  if (outcome.status === 'completed') return { status: 'completed', response: outcome.response };
  if (outcome.status === 'failed') {
    const error = outcome.error as Error & { kind?: string; code?: string };
    return { status: 'failed', kind: error.kind, code: error.code, message: error.message, message_: outcome.partial.aiMessage };
  }
  return { status: 'cancelled' };
}

/** The events of a body, split where each `id:` line starts one (the relay writes no comment inside the log). */
function events(body: string): string[] {
  return body.split(/(?=^id: )/m).filter((piece) => piece.startsWith('id: '));
}

describe(`relay conformance through memoryStore and relay()${recordedSkipNote('relay conformance')}`, () => {
  for (const testCase of relayCases()) {
    it(`${testCase.name} (${testCase.format}): the served log rebuilds the producer's stream; Last-Event-ID = k gives exactly the tail`, async () => {
      const store = memoryStore();
      const relayed = await openRelay(store, { flushCount: 5, flushMs: 1, relayRawEvents: true });
      const producer = loggingHandler();
      const produced = await consumeStream(source(testCase.bytes), producer, { format: testCase.format, relay: relayed });
      const end = await relayed.done;
      expect(end.status).to.equal('stored');

      const full = await relay(store, relayed.responseId, { retryMs: 1000 });
      expect(full.status).to.equal(200);
      expect(full.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
      expect(full.headers.get('cache-control')).to.equal('no-cache, no-transform');
      expect(full.headers.get('x-accel-buffering')).to.equal('no');
      expect(full.headers.get('x-partstream-wire')).to.equal('1');
      const body = await full.text();
      expect(body.startsWith(PREFIX)).to.equal(true);
      const all = events(body);
      expect(all.length).to.equal((end as { lastSequence: number }).lastSequence);
      all.forEach((text, i) => expect(text.startsWith(`id: ${i + 1}\n`)).to.equal(true));

      const viewer = loggingHandler();
      const viewed = await consumeStream(source(body), viewer, { format: 'partstream' });
      expect(viewer.log).to.deep.equal(producer.log);
      expect(essence(viewed)).to.deep.equal(essence(produced));

      for (let k = 0; k <= all.length; k += all.length > 200 ? 17 : 1) {
        const tail = await relay(store, relayed.responseId, { lastEventId: String(k) });
        if (k === all.length) {
          expect(tail.status, `k = ${k}`).to.equal(204);
          continue;
        }
        expect(tail.status, `k = ${k}`).to.equal(200);
        expect(await tail.text(), `k = ${k}`).to.equal(PREFIX + all.slice(k).join(''));
      }
      expect((await relay(store, relayed.responseId, { lastEventId: String(all.length) })).status).to.equal(204);
    });
  }
});
