import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamOpenAIChat } from '../../lib/clients/http-clients';
import { consumeStream } from '../../lib/driver/consume-stream';
import { memoryStore } from '../../lib/relay/memory-store';
import { openRelay } from '../../lib/relay/open-relay';
import { relay } from '../../lib/relay/relay-response';
import { stopResponse } from '../../lib/relay/stop-response';
import { loggingHandler } from './support/callback-log';
import { produce, RICH_CHAT, storedBatches } from './support/producer';
import { source } from './support/sources';

function chunk(content: string): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-x', choices: [{ index: 0, delta: { content } }] })}\n\n`;
}

/** An OpenAI Chat server that sends two deltas, then goes silent (a model thinking), noting when its socket closes. */
function silentServer(): { server: Server; closed: Promise<number> } {
  let onClosed: (at: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (onClosed = resolve));
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk('Hello, '));
    res.write(chunk('wor'));
    req.socket.once('close', () => onClosed(Date.now()));
  });
  return { server, closed };
}

async function viewerOf(store: ReturnType<typeof memoryStore>, id: string, producerTimeoutMs?: number) {
  const handler = loggingHandler();
  const outcome = await consumeStream(await relay(store, id, { producerTimeoutMs }), handler, { format: 'partstream' });
  return { outcome, log: handler.log };
}

describe('stopResponse and producer liveness', () => {
  it('stops a producer from another process during a silent phase within 250 ms: provider socket closed, cancelled stored, viewers get the stopped response', async () => {
    const store = memoryStore();
    const { server, closed } = silentServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const relayed = await openRelay(store, { flushMs: 1 });
      const producer = loggingHandler();
      const producing = streamOpenAIChat({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] }, producer, {
        baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        apiKey: 'sk-test',
        relay: relayed,
      });
      while (producer.log.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const elsewhere = store.peer('another-process');
      const asked = Date.now();
      const result = await stopResponse(elsewhere, relayed.responseId, { by: 'user', reason: 'clicked stop' });
      const socketClosedAt = await closed;
      expect(socketClosedAt - asked).to.be.below(250);
      expect(Date.now() - asked).to.be.below(250);
      expect((await producing).status).to.equal('cancelled');
      expect(relayed.signal.aborted).to.equal(true);
      const batches = await storedBatches(store, relayed.responseId);
      const lastBatch = batches[batches.length - 1];
      expect(result).to.deep.equal({ status: 'stopped', lastSequence: lastBatch?.last });
      expect(lastBatch?.text).to.match(/event: cancelled\ndata: .*"by":"user","reason":"clicked stop"/);

      const { outcome, log } = await viewerOf(store, relayed.responseId);
      expect(log.map((c) => c.on)).to.deep.equal(['partialResponse', 'partialResponse', 'completeResponse']);
      expect(outcome.status).to.equal('completed');
      const response = (outcome as { response: import('../../lib/handler/types').ChatResponse }).response;
      expect(response.aiMessage.text).to.equal('Hello, wor');
      expect(response.metadata.finishReason).to.equal('OTHER');
      expect(response.metadata.providerFinishReason).to.equal('cancelled');
      const stop = (response.metadata.providerMetadata as { partstream: { stop: { by: string; reason: string; at: string } } }).partstream.stop;
      expect(stop.by).to.equal('user');
      expect(stop.reason).to.equal('clicked stop');
      expect(new Date(stop.at).toISOString()).to.equal(stop.at);
      expect(response.metadata.id).to.equal('chatcmpl-1');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("ends a dead producer's response itself with cancelled", async () => {
    const store = memoryStore();
    const gone = store.peer('gone-process');
    const relayed = await openRelay(gone, { flushMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await gone.close();
    const result = await stopResponse(store, relayed.responseId, { reason: 'cleanup' });
    expect(result).to.deep.equal({ status: 'stopped', lastSequence: 2 });
    const { outcome } = await viewerOf(store, relayed.responseId);
    expect(outcome.status).to.equal('completed');
    const metadata = (outcome as { response: import('../../lib/handler/types').ChatResponse }).response.metadata;
    expect(metadata.providerFinishReason).to.equal('cancelled');
    expect(metadata.providerMetadata).to.deep.include({
      partstream: { stop: { by: 'stop', reason: 'cleanup', at: (metadata.providerMetadata as { partstream: { stop: { at: string } } }).partstream.stop.at } },
    });
  });

  it('says already-ended for a finished response and unknown for an unknown one', async () => {
    const store = memoryStore();
    const relayed = await openRelay(store, { flushMs: 1 });
    await produce(RICH_CHAT, relayed);
    const end = await relayed.done;
    expect(await stopResponse(store, relayed.responseId)).to.deep.equal({ status: 'already-ended', lastSequence: (end as { lastSequence: number }).lastSequence });
    expect(await stopResponse(store, 'nobody')).to.deep.equal({ status: 'unknown', lastSequence: 0 });
  });

  it('declares a silent producer with no heartbeat lost: every viewer, attached or late, fails producer_lost with the persisted partial', async () => {
    const store = memoryStore();
    const gone = store.peer('crashed-process');
    const relayed = await openRelay(gone, { flushMs: 1 });
    const text = new TextDecoder().decode(RICH_CHAT.bytes);
    const cut = text.indexOf('\n\n', text.length / 2) + 2;
    async function* stalls(): AsyncGenerator<string> {
      yield text.slice(0, cut);
      await new Promise(() => undefined);
    }
    void consumeStream(stalls(), loggingHandler(), { format: 'openai-chat', relay: relayed });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const persisted = (await store.info(relayed.responseId))?.last ?? 0;
    expect(persisted).to.be.above(3);
    // The persisted events as a body without a terminal: the partial every viewer must end with.
    const reading = new AbortController();
    setTimeout(() => reading.abort(), 20);
    let prefix = '';
    for await (const batch of store.read(relayed.responseId, 0, reading.signal)) prefix += batch.text;
    const truncated = await consumeStream(source(prefix), loggingHandler(), { format: 'partstream' });
    expect(truncated.status).to.equal('failed');
    const expectedPartial = (truncated as { partial: import('../../lib/handler/types').ChatResponse }).partial.aiMessage;

    const attached = viewerOf(store, relayed.responseId, 100);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const died = Date.now();
    await gone.close();
    for (const viewer of [await attached, await viewerOf(store, relayed.responseId, 100)]) {
      expect(Date.now() - died).to.be.below(100 + 2000);
      expect(viewer.outcome.status).to.equal('failed');
      const failed = viewer.outcome as unknown as { error: Error & { kind: string; code: string }; partial: import('../../lib/handler/types').ChatResponse };
      expect([failed.error.kind, failed.error.code]).to.deep.equal(['truncated', 'producer_lost']);
      expect(failed.error.message).to.include('crashed-process').and.to.include(`after sequence ${persisted}`);
      expect(failed.partial.aiMessage).to.deep.equal(expectedPartial);
      expect(viewer.log.filter((c) => c.on === 'error')).to.have.length(1);
    }
    const batches = await storedBatches(store, relayed.responseId);
    expect(batches.filter((b) => b.terminal)).to.have.length(1);
    expect(batches[batches.length - 1]?.text).to.include('"by":"reaper"');
  });
});
