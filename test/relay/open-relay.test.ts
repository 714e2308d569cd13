import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import { memoryStore } from '../../lib/relay/memory-store';
import { openRelay } from '../../lib/relay/open-relay';
import { producerLostBatch } from '../../lib/relay/reaper-event';
import { RelayError, type RelayBatch, type ResponseStore } from '../../lib/relay/response-store';
import { loggingHandler } from './support/callback-log';
import { FINISH, textChunk, word, wordsText } from './support/openai-chat-sse';
import { instrumentedStore, produce, RICH_CHAT, storedBatches } from './support/producer';
import { source } from './support/sources';

/** The body a viewer gets from a log: its batches' text joined. */
async function view(store: Parameters<typeof storedBatches>[0], id: string) {
  const body = (await storedBatches(store, id)).map((b) => b.text).join('');
  const handler = loggingHandler();
  const outcome = await consumeStream(source(body), handler, { format: 'partstream' });
  return { outcome, log: handler.log, body };
}

/** `store` with every append taking `ms` longer. */
function slowAppends(store: ResponseStore, ms: number): ResponseStore {
  return {
    ...store,
    append: async (id, batch) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await store.append(id, batch);
    },
  };
}

describe('openRelay', () => {
  it('claims the response id: a second producer of the same id fails conflict', async () => {
    const store = memoryStore();
    const first = await openRelay(store, { responseId: 'chat-1' });
    expect(first.responseId).to.equal('chat-1');
    let error: unknown;
    try {
      await openRelay(store.peer(), { responseId: 'chat-1' });
    } catch (caught) {
      error = caught;
    }
    expect(RelayError.isInstance(error) && error.kind).to.equal('conflict');
  });

  it('makes 128-bit random ids by default and refuses ids outside the pattern', async () => {
    const store = memoryStore();
    expect((await openRelay(store)).responseId).to.match(/^[0-9a-f]{32}$/);
    for (const bad of ['', 'a b', 'x'.repeat(129), '../x', 'é']) {
      let error: unknown;
      try {
        await openRelay(store, { responseId: bad });
      } catch (caught) {
        error = caught;
      }
      expect(error, bad).to.be.instanceOf(TypeError);
    }
  });

  it('appends contiguous batches of at most flushCount events, the terminal without waiting flushMs', async () => {
    const { store, appends } = instrumentedStore(memoryStore());
    const relay = await openRelay(store, { flushCount: 4, flushMs: 10_000 });
    const started = Date.now();
    await produce(RICH_CHAT, relay);
    const end = await relay.done;
    expect(Date.now() - started).to.be.below(2000);
    expect(end.status).to.equal('stored');
    let next = 1;
    for (const batch of appends) {
      expect(batch.first).to.equal(next);
      expect(batch.last - batch.first + 1).to.be.at.most(4);
      next = batch.last + 1;
    }
    expect(appends[appends.length - 1]?.terminal).to.equal(true);
    expect(appends.filter((b) => b.terminal)).to.have.length(1);
  });

  it('appends full batches while the stream outpaces its store: a batch that fills behind a slow append waits for flushCount or its flushMs', async () => {
    const inner = memoryStore();
    const { store, appends } = instrumentedStore(inner);
    // Each append takes 5 ms more while a delta arrives every millisecond or so.
    const slow = slowAppends(store, 5);
    const relay = await openRelay(slow, { flushCount: 8, flushMs: 10_000 });
    async function* paced(): AsyncGenerator<string> {
      for (let j = 0; j < 100; j++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        yield textChunk(word('p', j));
      }
      yield FINISH;
    }
    const outcome = await consumeStream(paced(), loggingHandler(), { format: 'openai-chat', relay });
    expect(outcome.status).to.equal('completed');
    const end = await relay.done;
    if (end.status !== 'stored') expect.fail(`relay ended ${end.status}`);
    expect(appends.map((b) => b.last - b.first + 1).slice(0, -1)).to.deep.equal(new Array(appends.length - 1).fill(8));
    expect(appends.length).to.equal(Math.ceil(end.lastSequence / 8));
    const viewed = await view(inner, relay.responseId);
    expect((viewed.outcome as { response?: { aiMessage: { text: string } } }).response?.aiMessage.text).to.equal(wordsText('p', 100));
  });

  it('appends a batch flushMs after its first event even when that falls while an earlier append is in flight', async () => {
    const inner = memoryStore();
    const { store } = instrumentedStore(inner);
    const slow = slowAppends(store, 30);
    const relay = await openRelay(slow, { flushCount: 1000, flushMs: 5 });
    let storedBeforeEnd = 0;
    async function* waiting(): AsyncGenerator<string> {
      yield textChunk('alone');
      // The stream goes on only once its delta is stored: no count, no terminal cuts that batch.
      const until = Date.now() + 3000;
      while (Date.now() < until && storedBeforeEnd < 2) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        storedBeforeEnd = (await inner.info(relay.responseId))?.last ?? 0;
      }
      yield FINISH;
    }
    const outcome = await consumeStream(waiting(), loggingHandler(), { format: 'openai-chat', relay });
    expect(outcome.status).to.equal('completed');
    // start (1) and the delta (2) were stored while the stream still waited.
    expect(storedBeforeEnd).to.be.at.least(2);
    expect((await relay.done).status).to.equal('stored');
  });

  it('appends an event taken while an append is in flight flushMs later, though no event follows it', async () => {
    const inner = memoryStore();
    const slow = slowAppends(instrumentedStore(inner).store, 40);
    const relay = await openRelay(slow, { flushCount: 3, flushMs: 5 });
    let storedWhileWaiting = 0;
    async function* silentAfter(): AsyncGenerator<string> {
      yield textChunk('first');
      // The first batch is cut (flushMs) and in flight when the second delta comes; then the stream is silent.
      await new Promise((resolve) => setTimeout(resolve, 15));
      yield textChunk('second');
      const until = Date.now() + 2000;
      while (Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        storedWhileWaiting = (await inner.info(relay.responseId))?.last ?? 0;
        if ((await storedBatches(inner, relay.responseId, storedWhileWaiting)).some((batch) => batch.text.includes('"text":"second"'))) break;
      }
      yield FINISH;
    }
    const outcome = await consumeStream(silentAfter(), loggingHandler(), { format: 'openai-chat', relay });
    expect(outcome.status).to.equal('completed');
    const body = (await storedBatches(inner, relay.responseId)).map((batch) => batch.text).join('');
    const second = Number(/id: (\d+)\nevent: delta\ndata: \{[^\n]*"text":"second"\}/.exec(body)?.[1]);
    expect(second, 'the second delta is in the log').to.be.greaterThan(0);
    expect(storedWhileWaiting, 'stored while the stream was silent').to.be.at.least(second);
  });

  it('never waits for the store inside a callback: a store that never answers leaves the stream untouched', async () => {
    const { store } = instrumentedStore(memoryStore(), { hang: true });
    const relay = await openRelay(store, { flushCount: 2 });
    const plain = loggingHandler();
    const expected = await consumeStream(source(RICH_CHAT.bytes), plain, { format: 'openai-chat' });
    const { outcome, log } = await produce(RICH_CHAT, relay);
    expect(log).to.deep.equal(plain.log);
    expect(outcome).to.deep.equal(expected);
  });

  it('retries a failed append with the same batch: no gap, no duplicate, the viewer equal to the producer', async () => {
    const inner = memoryStore();
    const { store, appends } = instrumentedStore(inner, { fail: (attempt) => (attempt % 3 === 0 ? 'before' : attempt % 3 === 1 ? 'after' : null) });
    const relay = await openRelay(store, { flushCount: 3, flushMs: 1, relayRawEvents: true });
    const produced = await produce(RICH_CHAT, relay);
    expect((await relay.done).status).to.equal('stored');
    expect(appends.length).to.be.above(3);
    const viewed = await view(inner, relay.responseId);
    expect(viewed.log).to.deep.equal(produced.log);
    expect(viewed.outcome).to.deep.equal(produced.outcome);
  });

  it('appends the batches that wait behind a slow store in one appendBatches call, each batch its own, and never more than 64 at once', async () => {
    const inner = memoryStore();
    const { store, appends } = instrumentedStore(inner);
    const groups: RelayBatch[][] = [];
    const grouping: ResponseStore = {
      ...store,
      appendBatches: async (id, batches) => {
        groups.push([...batches]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        for (const batch of batches) await inner.append(id, batch);
      },
    };
    const relay = await openRelay(grouping, { flushCount: 2, flushMs: 10_000, relayRawEvents: true });
    // 300 deltas in one chunk: the stream is done long before the first append lands.
    const body = Array.from({ length: 300 }, (_, j) => textChunk(word('g', j))).join('') + FINISH;
    const plain = loggingHandler();
    const produced = await consumeStream(source(body), plain, { format: 'openai-chat', relay });
    const end = await relay.done;
    if (end.status !== 'stored') expect.fail(`relay ended ${end.status}`);
    // Every batch as cut (flushCount 2), sent once and in order, all but the first few in groups of at most 64.
    const sent = [...appends, ...groups.flat()].sort((a, b) => a.first - b.first);
    let next = 1;
    for (const batch of sent) {
      expect(batch.first).to.equal(next);
      expect(batch.last - batch.first + 1).to.be.at.most(2);
      next = batch.last + 1;
    }
    expect(next - 1).to.equal(end.lastSequence);
    expect(groups.length).to.be.at.least(2);
    expect(Math.max(...groups.map((group) => group.length))).to.equal(64);
    expect(appends.length, 'single appends').to.be.below(groups.length);
    const viewed = await view(inner, relay.responseId);
    expect(viewed.log).to.deep.equal(plain.log);
    expect(viewed.outcome).to.deep.equal(produced);
  });

  it('after a failed appendBatches appends its batches one by one: what it had stored resolves, nothing is lost or repeated', async () => {
    const inner = memoryStore();
    const { store, appends } = instrumentedStore(inner);
    let calls = 0;
    const failing: ResponseStore = {
      ...store,
      appendBatches: async (id, batches) => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 2));
        // Every other call stores the first half of its batches, then its connection fails.
        const stored = calls % 2 === 1 ? Math.ceil(batches.length / 2) : batches.length;
        for (const batch of batches.slice(0, stored)) await inner.append(id, batch);
        if (stored < batches.length) throw new Error('connection reset');
      },
    };
    const relay = await openRelay(failing, { flushCount: 3, flushMs: 10_000, relayRawEvents: true });
    const produced = await produce(RICH_CHAT, relay);
    expect((await relay.done).status).to.equal('stored');
    expect(calls, 'appendBatches calls').to.be.at.least(2);
    // The batch after each failed group went alone: it was already stored, and resolved.
    expect(appends.length, 'single appends').to.be.at.least(1);
    const viewed = await view(inner, relay.responseId);
    expect(viewed.log).to.deep.equal(produced.log);
    expect(viewed.outcome).to.deep.equal(produced.outcome);
  });

  it('ends the log with relay_too_large past maxResponseBytes while the local stream goes on', async () => {
    const store = memoryStore();
    const relay = await openRelay(store, { maxResponseBytes: 600, flushMs: 1 });
    const produced = await produce(RICH_CHAT, relay);
    expect(produced.outcome.status).to.equal('completed');
    expect((await relay.done).status).to.equal('stored');
    const viewed = await view(store, relay.responseId);
    expect(viewed.body.length).to.be.below(900);
    expect(viewed.outcome.status).to.equal('failed');
    const error = (viewed.outcome as unknown as { error: Error & { kind: string; code: string } }).error;
    expect([error.kind, error.code]).to.deep.equal(['truncated', 'relay_too_large']);
    const relayed = produced.log.filter((c) => c.on !== 'unmappedRawEvent');
    expect(viewed.log.filter((c) => c.on !== 'error')).to.deep.equal(relayed.slice(0, viewed.log.length - 1));
  });

  it('is fenced out when a reaper ended its log: it cancels its source, writes nothing more, and fails producer_fenced', async () => {
    const store = memoryStore();
    const relay = await openRelay(store, { flushMs: 1 });
    let returned = false;
    const text = new TextDecoder().decode(RICH_CHAT.bytes);
    const cut = text.indexOf('\n\n', text.length / 3) + 2;
    const cut2 = text.indexOf('\n\n', (2 * text.length) / 3) + 2;
    async function* slow(): AsyncGenerator<string> {
      try {
        yield text.slice(0, cut);
        await new Promise((resolve) => setTimeout(resolve, 30));
        const info = await store.info(relay.responseId);
        await store.append(relay.responseId, producerLostBatch(relay.responseId, store.producerId, (info?.last ?? 0) + 1));
        // The paused producer wakes up and goes on.
        yield text.slice(cut, cut2);
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield ': keep-alive\n\n';
        }
      } finally {
        returned = true;
      }
    }
    const handler = loggingHandler();
    const outcome = await consumeStream(slow(), handler, { format: 'openai-chat', relay });
    expect(outcome.status).to.equal('failed');
    const error = (outcome as unknown as { error: Error & { kind: string; code: string } }).error;
    expect([error.kind, error.code]).to.deep.equal(['truncated', 'producer_fenced']);
    expect(handler.log.filter((c) => c.on === 'error')).to.have.length(1);
    // The generator's return() waits for its pending pause.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(returned).to.equal(true);
    expect(relay.signal.aborted).to.equal(true);
    expect((await relay.done).status).to.equal('fenced');
    const batches = await storedBatches(store, relay.responseId);
    expect(batches[batches.length - 1]?.text).to.include('"code":"producer_lost"');
    expect(batches.filter((b) => b.terminal)).to.have.length(1);
  });

  it('relays raw events only with relayRawEvents', async () => {
    const quiet = memoryStore();
    const relay = await openRelay(quiet, { flushMs: 1 });
    const produced = await produce(RICH_CHAT, relay);
    await relay.done;
    const viewed = await view(quiet, relay.responseId);
    expect(produced.log.some((c) => c.on === 'unmappedRawEvent')).to.equal(true);
    expect(viewed.log).to.deep.equal(produced.log.filter((c) => c.on !== 'unmappedRawEvent'));
  });
});
