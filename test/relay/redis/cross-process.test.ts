// The relay across processes through a real Redis (SPEC §13): producers run in child processes
// (test/relay/support/producer-process.ts) and are killed, paused, stopped or multiplied; viewers
// and stoppers run here, in another process with a store of their own.

import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { consumeStream } from '../../../lib/driver/consume-stream';
import type { StreamOutcome } from '../../../lib/driver/stream-options';
import { redisStore, type RedisResponseStore } from '../../../lib/relay/redis/redis-store';
import { openRelay } from '../../../lib/relay/open-relay';
import { relay } from '../../../lib/relay/relay-response';
import { stopResponse } from '../../../lib/relay/stop-response';
import { FINISH, textChunk, wordsText } from '../support/openai-chat-sse';
import { forkProducer, type ProducerChild } from '../support/producer-child';
import { REDIS_LIBRARIES, connectRedis, type TestRedisClient } from '../support/redis-clients';
import { useRedisServer } from '../support/redis-server';
import { newResponseId } from '../support/store-conformance';

const PRODUCER_TIMEOUT_MS = 1000;

/** Follows response `responseId` from this process, as a viewer: the outcome and how many text callbacks it had. */
async function view(store: RedisResponseStore, responseId: string): Promise<{ outcome: StreamOutcome; deltas: string[]; at: number }> {
  const response = await relay(store, responseId, { producerTimeoutMs: PRODUCER_TIMEOUT_MS });
  expect(response.status, `relay of ${responseId}`).to.equal(200);
  const deltas: string[] = [];
  const outcome = await consumeStream(
    response.body as ReadableStream<Uint8Array>,
    { onPartialResponse: (partial) => void deltas.push(partial.text), onCompleteResponse: () => undefined, onError: () => undefined },
    { format: 'partstream' },
  );
  return { outcome, deltas, at: Date.now() };
}

/** The whole stored log of `responseId`, as text. */
async function storedLog(store: RedisResponseStore, responseId: string): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  let text = '';
  try {
    for await (const batch of store.read(responseId, 0, controller.signal)) text += batch.text;
  } finally {
    clearTimeout(timer);
  }
  return text;
}

/** The text the log's `delta` events carry, read by hand from their `data:` lines. */
function deltaText(log: string): string {
  let text = '';
  for (const [, data] of log.matchAll(/^event: delta\ndata: ([^\n]*)$/gm)) text += (JSON.parse(data as string) as { text: string }).text;
  return text;
}

function failure(outcome: StreamOutcome): { kind?: string; code?: string; message: string; text: string } {
  expect(outcome.status).to.equal('failed');
  const failed = outcome as Extract<StreamOutcome, { status: 'failed' }>;
  const error = failed.error as Error & { kind?: string; code?: string };
  return { kind: error.kind, code: error.code, message: error.message, text: failed.partial.aiMessage.text ?? '' };
}

describe('relay across processes through Redis', function () {
  this.timeout(30_000);
  const server = useRedisServer();
  let viewerClient: TestRedisClient | undefined;
  let store: RedisResponseStore;
  const children: ProducerChild[] = [];
  before(async () => {
    viewerClient = await connectRedis('node-redis', server().url, 'viewers');
    store = redisStore(viewerClient.client, { heartbeatMs: 200, producerTimeoutMs: PRODUCER_TIMEOUT_MS });
  });
  after(async () => {
    await store?.close();
    await viewerClient?.close();
  });
  afterEach(() => {
    for (const child of children.splice(0)) {
      child.process.kill('SIGCONT');
      child.kill();
    }
  });
  const producer = (job: Record<string, unknown>): ProducerChild => {
    const child = forkProducer({ url: server().url, ...job });
    children.push(child);
    return child;
  };

  it('a producer killed with SIGKILL mid-stream: attached and late viewers fail with producer_lost and the persisted partial, within 2 s of producerTimeoutMs', async () => {
    const responseId = newResponseId();
    const child = producer({ mode: 'paced', library: 'node-redis', name: 'killed-producer', responseId, words: 1000, delayMs: 10 });
    await child.next('the relay opened', (report) => report.type === 'opened');
    const attached = [view(store, responseId), view(store, responseId)];
    const reported = Number((await child.next('60 deltas', (report) => report.type === 'delta' && Number(report.count) >= 60)).count);
    child.process.kill('SIGKILL');
    const killedAt = Date.now();
    const ends = await Promise.all(attached);
    const log = await storedLog(store, responseId);
    const persisted = deltaText(log.slice(0, log.lastIndexOf('\nevent: error\n')));
    const info = await store.info(responseId);
    // Persisted: a prefix of the words sent, missing at most one flush (a batch holds at most flushCount = 64 events).
    expect(wordsText('p', 1000).startsWith(persisted)).to.equal(true);
    expect(persisted.split(' ').length - 1).to.be.at.least(reported - 64);
    for (const end of ends) {
      const failed = failure(end.outcome);
      expect([failed.kind, failed.code]).to.deep.equal(['truncated', 'producer_lost']);
      expect(failed.message)
        .to.contain(String(info?.producerId))
        .and.to.contain(String((info?.last ?? 0) - 1));
      expect(failed.text).to.equal(persisted);
      expect(end.deltas.join('')).to.equal(persisted);
      expect(end.at - killedAt).to.be.at.most(PRODUCER_TIMEOUT_MS + 2000);
    }
    const late = await view(store, responseId);
    const lateFailure = failure(late.outcome);
    expect([lateFailure.code, lateFailure.text]).to.deep.equal(['producer_lost', persisted]);
  });

  for (const library of REDIS_LIBRARIES) {
    it(`fencing (${library}): a SIGSTOPped producer declared lost, then SIGCONTed, writes nothing more and cancels its source`, async () => {
      const responseId = newResponseId();
      const child = producer({ mode: 'paced', library, name: `paused-${library}`, responseId, words: 1000, delayMs: 10 });
      await child.next('the relay opened', (report) => report.type === 'opened');
      const attached = view(store, responseId);
      await child.next('30 deltas', (report) => report.type === 'delta' && Number(report.count) >= 30);
      child.process.kill('SIGSTOP');
      const lost = failure((await attached).outcome);
      expect(lost.code).to.equal('producer_lost');
      const logAtReap = await storedLog(store, responseId);
      child.process.kill('SIGCONT');
      const end = await child.next('the end of the resumed producer', (report) => report.type === 'end');
      expect(end.relay).to.equal('fenced');
      expect(end.sourceCancelled).to.equal(true);
      expect(end.outcome).to.include({ status: 'failed', kind: 'truncated', code: 'producer_fenced' });
      expect(await storedLog(store, responseId)).to.equal(logAtReap);
      expect(logAtReap.endsWith('"by":"reaper"}\n\n')).to.equal(true);
    });
  }

  it('1,000 concurrent relays from 4 producer processes: every final exact, no gap, no duplicate, at most 2 Redis connections per process', async function () {
    this.timeout(60_000);
    const PROCESSES = 4;
    const PER_PROCESS = 250;
    const WORDS = 20;
    const tags = Array.from({ length: PROCESSES }, (_, p) => `many${p}${newResponseId().slice(2, 8)}`);
    const kids = tags.map((tag, p) => producer({ mode: 'many', library: p % 2 === 0 ? 'node-redis' : 'ioredis', name: `producer-${p}`, tag, responses: PER_PROCESS, words: WORDS, delayMs: 5 }));
    await Promise.all(kids.map((child) => child.next('the relays opened', (report) => report.type === 'opened')));
    // Every producer holds its two connections (commands and the blocking one) before any relay
    // streams, so the bound below is not met by a process that had already finished.
    const counts: Map<string, number>[] = [];
    for (let tries = 0; tries < 200; tries += 1) {
      const sample = await connectionsByName();
      counts.push(sample);
      if (tags.every((_, p) => sample.get(`producer-${p}`) === 2)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const child of kids) child.process.send({ type: 'go' });
    const viewers = tags.flatMap((tag) => Array.from({ length: PER_PROCESS }, (_, i) => view(store, `${tag}-${i}`).then((end) => ({ id: `${tag}-${i}`, ...end }))));
    const sampling = (async () => {
      for (let samples = 0; samples < 20; samples += 1) {
        counts.push(await connectionsByName());
        if (kids.every((child) => child.reports.some((report) => report.type === 'end'))) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const ends = await Promise.all(kids.map((child) => child.next('the end', (report) => report.type === 'end', 50_000)));
    for (const end of ends) expect(end.failures).to.deep.equal([]);
    for (const viewed of await Promise.all(viewers)) {
      const [tag, i] = [viewed.id.slice(0, viewed.id.lastIndexOf('-')), viewed.id.slice(viewed.id.lastIndexOf('-') + 1)];
      const expected = wordsText(`${tag}-${i}-`, WORDS);
      expect(viewed.outcome.status, viewed.id).to.equal('completed');
      expect((viewed.outcome as Extract<StreamOutcome, { status: 'completed' }>).response.aiMessage.text, viewed.id).to.equal(expected);
      expect(viewed.deltas, viewed.id).to.deep.equal(expected.split(/(?<= )/));
    }
    await sampling;
    counts.push(await connectionsByName());
    for (const sample of counts) {
      for (let p = 0; p < PROCESSES; p += 1) expect(sample.get(`producer-${p}`) ?? 0, `producer-${p}`).to.be.at.most(2);
      expect(sample.get('viewers') ?? 0, 'viewers').to.be.at.most(2);
    }
    // While the producers streamed, each held its connections (the count is not vacuous).
    for (let p = 0; p < PROCESSES; p += 1) expect(Math.max(...counts.map((sample) => sample.get(`producer-${p}`) ?? 0)), `producer-${p} seen`).to.equal(2);
  });

  async function connectionsByName(): Promise<Map<string, number>> {
    const list = String(await server().admin(['CLIENT', 'LIST']));
    const counts = new Map<string, number>();
    for (const [, name] of list.matchAll(/ name=(\S*)/g)) counts.set(name as string, (counts.get(name as string) ?? 0) + 1);
    return counts;
  }

  it('a finished response of 100,000 deltas replays in full from Redis to a late viewer (its speed is measured in npm run bench)', async () => {
    const WORDS = 100_000;
    const relayed = await openRelay(store);
    const chunks = async function* (): AsyncGenerator<string> {
      let piece = '';
      for (let j = 0; j < WORDS; j += 1) {
        piece += textChunk(`w${j} `);
        if (piece.length > 60_000) {
          yield piece;
          piece = '';
        }
      }
      yield piece + FINISH;
    };
    const produced = await consumeStream(chunks(), { onCompleteResponse: () => undefined, onError: () => undefined }, { format: 'openai-chat', relay: relayed });
    expect((await relayed.done).status).to.equal('stored');
    const replayed = await view(store, relayed.responseId);
    expect(replayed.outcome.status).to.equal('completed');
    expect(replayed.deltas.length).to.equal(WORDS);
    const text = (replayed.outcome as Extract<StreamOutcome, { status: 'completed' }>).response.aiMessage.text;
    expect(text).to.equal(Array.from({ length: WORDS }, (_, j) => `w${j} `).join(''));
    expect((replayed.outcome as Extract<StreamOutcome, { status: 'completed' }>).response).to.deep.equal((produced as Extract<StreamOutcome, { status: 'completed' }>).response);
  });

  for (const phase of ['streaming', 'silent'] as const) {
    it(`stop from another process while the producer is ${phase}: provider socket closed and cancelled stored within 250 ms`, async () => {
      const provider = await providerServer(phase);
      try {
        const responseId = newResponseId();
        const child = producer({ mode: 'provider', library: 'ioredis', name: `stopped-${phase}`, responseId, providerUrl: provider.url });
        await child.next('5 deltas', (report) => report.type === 'delta' && Number(report.count) >= 5);
        if (phase === 'silent') await new Promise((resolve) => setTimeout(resolve, 300));
        const socketClosed = provider.closed();
        const stoppedAt = Date.now();
        const result = await stopResponse(store, responseId, { reason: 'user pressed stop', by: 'user' });
        const storedAt = Date.now();
        const closedAt = await socketClosed;
        expect(result.status).to.equal('stopped');
        expect(storedAt - stoppedAt, 'cancelled stored').to.be.at.most(250);
        expect(closedAt - stoppedAt, 'provider socket closed').to.be.at.most(250);
        const log = await storedLog(store, responseId);
        expect(log).to.match(new RegExp(`id: ${result.lastSequence}\\nevent: cancelled\\ndata: [^\\n]*"by":"user"[^\\n]*\\n\\n$`));
        const end = await child.next('the end', (report) => report.type === 'end');
        expect(end.outcome).to.include({ status: 'cancelled' });
        expect(end.relay).to.equal('stored');
        expect(deltaText(log)).to.equal((end.outcome as { text: string }).text);
      } finally {
        await provider.close();
      }
    });
  }
});

/** A loopback OpenAI Chat server that streams a word every 20 ms forever, or 5 words and then silence. */
async function providerServer(phase: 'streaming' | 'silent'): Promise<{ url: string; closed(): Promise<number>; close(): Promise<void> }> {
  let onClose: ((at: number) => void) | null = null;
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let j = 0;
    const timer = setInterval(() => {
      if (phase === 'silent' && j >= 5) return;
      res.write(textChunk(`w${j++} `));
    }, 20);
    res.on('close', () => {
      clearInterval(timer);
      onClose?.(Date.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  void FINISH;
  return {
    url: `http://127.0.0.1:${port}`,
    closed: () => new Promise((resolve) => (onClose = resolve)),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
