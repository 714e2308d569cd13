import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { memoryStore } from '../../lib/relay/memory-store';
import { openRelay } from '../../lib/relay/open-relay';
import { relay } from '../../lib/relay/relay-response';
import { relayToNode } from '../../lib/relay/relay-to-node';
import { produce, RICH_CHAT } from './support/producer';

const NON_DIGIT_CURSORS = ['', ' 1', '1 ', '+1', '-1', '1.0', '1e3', '0x1', 'abc', '١', '１', '9007199254740992', '99999999999999999999', '1\n', '1,2', 'Infinity', 'NaN'];

async function finishedResponse() {
  const store = memoryStore();
  const relayed = await openRelay(store, { flushMs: 1 });
  await produce(RICH_CHAT, relayed);
  const end = await relayed.done;
  return { store, id: relayed.responseId, last: end.status === 'stored' ? end.lastSequence : -1 };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

describe('relay(): the server side', () => {
  it('answers 404 for an unknown id and for a string that cannot be an id', async () => {
    const store = memoryStore();
    expect((await relay(store, 'no-such-response')).status).to.equal(404);
    expect((await relay(store, '../etc/passwd')).status).to.equal(404);
    expect((await relay(store, 'x'.repeat(129))).status).to.equal(404);
  });

  it('answers 400 for every cursor that is not ASCII digits within 2^53-1, from lastEventId, Last-Event-ID and ?from=', async () => {
    const { store, id } = await finishedResponse();
    for (const cursor of NON_DIGIT_CURSORS) {
      expect((await relay(store, id, { lastEventId: cursor })).status, JSON.stringify(cursor)).to.equal(400);
      expect((await relay(store, id, { request: new Request(`http://x/r?from=${encodeURIComponent(cursor)}`) })).status, `?from=${JSON.stringify(cursor)}`).to.equal(400);
      if (!cursor.includes('\n') && cursor.trim() === cursor && /^[\x20-\x7e]*$/.test(cursor)) {
        expect((await relay(store, id, { request: new Request('http://x/r', { headers: { 'last-event-id': cursor } }) })).status, `header ${JSON.stringify(cursor)}`).to.equal(400);
      }
    }
    expect((await relay(store, id, { lastEventId: '9007199254740991' })).status).to.equal(204);
  });

  it('answers 204 once the cursor is at the terminal, and 200 with the whole log to a late viewer', async () => {
    const { store, id, last } = await finishedResponse();
    expect((await relay(store, id, { lastEventId: String(last) })).status).to.equal(204);
    const late = await relay(store, id);
    expect(late.status).to.equal(200);
    const body = await late.text();
    expect(body.startsWith('retry: 1000\n: open\n\n')).to.equal(true);
    expect(body).to.include('id: 1\nevent: start\n');
    expect(body.endsWith('\n\n')).to.equal(true);
    expect(body.match(/^id: /gm)).to.have.length(last);
  });

  it('takes the cursor from the request: Last-Event-ID before ?from=', async () => {
    const { store, id } = await finishedResponse();
    const byHeader = await (await relay(store, id, { request: new Request('http://x/r?from=1', { headers: { 'last-event-id': '3' } }) })).text();
    expect(byHeader.split('\n')[3]).to.equal('id: 4');
    const byQuery = await (await relay(store, id, { request: new Request('http://x/r?from=2') })).text();
    expect(byQuery.split('\n')[3]).to.equal('id: 3');
  });

  it('writes : ping after heartbeatMs of silence', async () => {
    const store = memoryStore();
    const relayed = await openRelay(store, { flushMs: 1 });
    const response = await relay(store, relayed.responseId, { heartbeatMs: 20 });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const text = new TextDecoder();
    let seen = '';
    const until = Date.now() + 1000;
    while (!seen.includes(': ping') && Date.now() < until) seen += text.decode((await reader.read()).value);
    await reader.cancel();
    expect(seen).to.include('id: 1\nevent: start\n');
    expect(seen).to.include(': ping\n\n');
  });

  it('never stops the producer when 100 viewers disconnect', async () => {
    const store = memoryStore();
    const relayed = await openRelay(store, { flushMs: 1 });
    const text = new TextDecoder().decode(RICH_CHAT.bytes);
    const pieces = text.split(/(?<=\n\n)/);
    async function* slow(): AsyncGenerator<string> {
      for (const piece of pieces) {
        await new Promise((resolve) => setTimeout(resolve, 3));
        yield piece;
      }
    }
    const { consumeStream } = await import('../../lib/driver/consume-stream');
    const producing = consumeStream(slow(), { onCompleteResponse: () => undefined, onError: () => undefined }, { format: 'openai-chat', relay: relayed });
    const viewers = await Promise.all(Array.from({ length: 100 }, () => relay(store, relayed.responseId)));
    await Promise.all(
      viewers.map(async (response) => {
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        await reader.read();
        await reader.cancel();
      }),
    );
    const outcome = await producing;
    expect(outcome.status).to.equal('completed');
    expect(relayed.signal.aborted).to.equal(false);
    expect((await relayed.done).status).to.equal('stored');
    expect((await store.info(relayed.responseId))?.state).to.equal('ended');
  });

  it('relayToNode serves node:http with the Last-Event-ID header or ?from=, and the status codes', async () => {
    const { store, id, last } = await finishedResponse();
    const server = createServer((req, res) => void relayToNode(store, (req.url ?? '').split('?')[0]?.slice(1) ?? '', req, res));
    const url = await listen(server);
    try {
      const full = await (await fetch(`${url}/${id}`)).text();
      const header = await fetch(`${url}/${id}`, { headers: { 'last-event-id': '2' } });
      expect(header.status).to.equal(200);
      expect(header.headers.get('x-partstream-wire')).to.equal('1');
      const headerBody = await header.text();
      const tail = full.slice(full.indexOf('id: 3\n'));
      expect(headerBody).to.equal(`retry: 1000\n: open\n\n${tail}`);
      expect(await (await fetch(`${url}/${id}?from=2`)).text()).to.equal(headerBody);
      expect((await fetch(`${url}/${id}?from=${last}`)).status).to.equal(204);
      expect((await fetch(`${url}/unknown-id`)).status).to.equal(404);
      expect((await fetch(`${url}/${id}?from=1.5`)).status).to.equal(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
