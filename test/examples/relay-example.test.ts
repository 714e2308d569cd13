import { expect } from 'chai';
import path from 'node:path';
import { createClient } from 'redis';
import { consumeStream, type StreamOutcome } from 'partstream';
import { memoryStore, redisStore, type ResponseStore } from 'partstream/relay';
import { startRelayService, type RelayService } from '../../examples/relay/service';
import { useRedisServer } from '../relay/support/redis-server';

// The relay example (examples/relay/) as a client uses it, over HTTP: start, follow, resume,
// stop; with memoryStore, and with two services sharing one Redis (as two processes would). It
// runs from the built package (dist/), as a user's service would.
// A plain CommonJS script (it also runs from the command line), hence require.
const { ensureBuild } = require('../../scripts/ensure-build.js') as { ensureBuild(root: string): string };

/** The transcript's text and reasoning, joined by hand from examples/relay/transcript.sse. */
const TEXT =
  'A relay keeps each response in a store, numbered event by event. A browser that drops its connection comes back with the last event it saw and gets exactly the rest: nothing twice, nothing lost. Stop works from any process, and a late viewer replays the whole answer.';
const REASONING = 'The user asks why a relay helps. Explain reconnects and stop.';

async function start(service: RelayService): Promise<string> {
  const response = await fetch(`${service.url}/responses`, { method: 'POST' });
  expect(response.status).to.equal(201);
  return ((await response.json()) as { id: string }).id;
}

async function follow(service: RelayService, id: string, lastEventId?: number): Promise<{ outcome: StreamOutcome; text: string; reasoning: string }> {
  const response = await fetch(`${service.url}/responses/${id}/events`, { headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) } });
  expect(response.status).to.equal(200);
  let text = '';
  let reasoning = '';
  const handler = { onPartialResponse: (p: { text: string }) => void (text += p.text), onPartialThinking: (p: { text: string }) => void (reasoning += p.text), onCompleteResponse() {}, onError() {} };
  const outcome = await consumeStream(response.body as ReadableStream<Uint8Array>, handler, { format: 'partstream', fromSequence: lastEventId });
  return { outcome, text, reasoning };
}

function finalOf(outcome: StreamOutcome): { text: string | null; reason: string | null } {
  expect(outcome.status).to.equal('completed');
  const { response } = outcome as Extract<StreamOutcome, { status: 'completed' }>;
  return { text: response.aiMessage.text, reason: response.metadata.providerFinishReason };
}

function describeService(name: string, makeStores: () => Promise<[ResponseStore, ResponseStore, () => Promise<void>]>): void {
  describe(`examples/relay service (${name})`, function () {
    this.timeout(30_000);
    let producing: RelayService;
    let viewing: RelayService;
    let release: () => Promise<void>;
    before(async function () {
      this.timeout(120_000);
      ensureBuild(path.resolve(__dirname, '../..'));
      const [a, b, done] = await makeStores();
      release = done;
      producing = await startRelayService({ store: a, pageScript: '', paceMs: 5 });
      viewing = b === a ? producing : await startRelayService({ store: b, pageScript: '', paceMs: 5 });
    });
    after(async () => {
      await producing?.close();
      if (viewing !== producing) await viewing?.close();
      await release?.();
    });

    it('streams a started response to a viewer: text and reasoning live, the final text exact', async () => {
      const id = await start(producing);
      const seen = await follow(viewing, id);
      expect(finalOf(seen.outcome)).to.deep.equal({ text: TEXT, reason: 'stop' });
      expect([seen.text, seen.reasoning]).to.deep.equal([TEXT, REASONING]);
    });

    it('resumes from Last-Event-ID with exactly the rest, and replays a finished response to a late viewer', async () => {
      const id = await start(producing);
      const first = await follow(viewing, id);
      const late = await follow(viewing, id);
      expect(finalOf(late.outcome).text).to.equal(TEXT);
      expect(late.text).to.equal(first.text);
      const tail = await (await fetch(`${viewing.url}/responses/${id}/events`, { headers: { 'last-event-id': '12' } })).text();
      const ids = [...tail.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
      expect(ids[0]).to.equal(13);
      expect(ids).to.deep.equal(Array.from({ length: ids.length }, (_, i) => 13 + i));
      expect(tail).to.match(/event: complete\ndata: [^\n]*\n\n$/);
      const after = await fetch(`${viewing.url}/responses/${id}/events`, { headers: { 'last-event-id': String(ids[ids.length - 1]) } });
      expect(after.status).to.equal(204);
    });

    it('stops a response from the stop route: the viewer ends with the partial, cancelled', async () => {
      const id = await start(producing);
      await new Promise((resolve) => setTimeout(resolve, 60));
      const stop = await fetch(`${viewing.url}/responses/${id}/stop`, { method: 'POST' });
      expect(((await stop.json()) as { status: string }).status).to.equal('stopped');
      const seen = await follow(viewing, id);
      const final = finalOf(seen.outcome);
      expect(final.reason).to.equal('cancelled');
      expect(TEXT.startsWith(final.text ?? '') && (final.text ?? '').length < TEXT.length).to.equal(true);
    });

    it('answers 404 for an unknown response', async () => {
      expect((await fetch(`${viewing.url}/responses/nope/events`)).status).to.equal(404);
    });
  });
}

describeService('memoryStore', async () => {
  const store = memoryStore();
  return [store, store, () => store.close()];
});

describe('examples/relay with Redis', () => {
  const server = useRedisServer();
  describeService('two services sharing one Redis', async () => {
    const clients = [createClient({ url: server().url }), createClient({ url: server().url })];
    await Promise.all(clients.map((client) => client.connect()));
    const [a, b]: ResponseStore[] = clients.map((client) => redisStore(client, { heartbeatMs: 200, producerTimeoutMs: 1000 }));
    if (a === undefined || b === undefined) throw new Error('Expected two stores');
    return [
      a,
      b,
      async () => {
        await Promise.all([a.close(), b.close()]);
        for (const client of clients) client.destroy();
      },
    ];
  });
});
