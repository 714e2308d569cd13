import { expect } from 'chai';
import { consumeStream } from '../../../lib/driver/consume-stream';
import { loggingHandler } from '../../relay/support/callback-log';
import { source } from '../../relay/support/sources';

/** One SSE event of a relay body, written by hand. */
function event(id: number | string, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

const START = event(1, 'start', { v: 1, responseId: 'r1', producerId: 'p1', createdAt: '2026-01-01T00:00:00Z' });
const COMPLETE = (id: number): string => event(id, 'complete', { responseId: 'r1', metadata: { id: 'm1', modelName: 'x', finishReason: 'STOP' }, attributes: {} });

async function view(body: string, options: { maxFrameBytes?: number } = {}) {
  const handler = loggingHandler();
  const outcome = await consumeStream(source(body), handler, { format: 'partstream', ...options });
  return { outcome, log: handler.log };
}

async function expectFailure(body: string, kind: string, message: RegExp, options: { maxFrameBytes?: number } = {}): Promise<void> {
  const { outcome, log } = await view(body, options);
  expect(outcome.status).to.equal('failed');
  const error = (outcome as { error: Error & { kind?: string } }).error;
  expect(error.kind).to.equal(kind);
  expect(error.message).to.match(message);
  expect(log.filter((c) => c.on === 'error')).to.have.length(1);
  expect(log.filter((c) => c.on === 'completeResponse')).to.have.length(0);
}

describe('partstream viewer: hostile relay input (SPEC §11, §13)', () => {
  it('reads a well-formed body (the control case)', async () => {
    const { outcome, log } = await view(START + event(2, 'delta', { index: 0, type: 'text', text: 'Hi' }) + COMPLETE(3));
    expect(outcome.status).to.equal('completed');
    expect(log[0]).to.deep.equal({ on: 'partialResponse', text: 'Hi', payload: null });
    expect((outcome as { response: { aiMessage: { text: string } } }).response.aiMessage.text).to.equal('Hi');
  });

  it('fails malformed on an index jump (an index beyond the highest so far plus one), before applying it', async () => {
    await expectFailure(
      START + event(2, 'delta', { index: 0, type: 'text', text: 'a' }) + event(3, 'delta', { index: 1000000000, type: 'reasoning', text: 'b' }) + COMPLETE(4),
      'malformed',
      /stamped index 1000000000 where the viewer counts 1/,
    );
    const { outcome } = await view(START + event(2, 'delta', { index: 0, type: 'text', text: 'a' }) + event(3, 'delta', { index: 1000000000, type: 'reasoning', text: 'b' }));
    expect((outcome as unknown as { partial: { aiMessage: { parts: unknown[] } } }).partial.aiMessage.parts).to.have.length(1);
  });

  it('fails malformed on an index the viewer would not give (a repeated slot for a new run)', async () => {
    await expectFailure(
      START + event(2, 'delta', { index: 0, type: 'text', text: 'a' }) + event(3, 'delta', { index: 0, type: 'reasoning', text: 'b' }) + COMPLETE(4),
      'malformed',
      /index 0 where the viewer counts 1/,
    );
  });

  it('fails malformed on a skipped sequence', async () => {
    await expectFailure(START + event(3, 'delta', { index: 0, type: 'text', text: 'a' }) + COMPLETE(4), 'malformed', /sequence gap: expected 2, got 3/);
  });

  it('fails malformed on a repeated sequence', async () => {
    await expectFailure(
      START + event(2, 'delta', { index: 0, type: 'text', text: 'a' }) + event(2, 'delta', { index: 0, type: 'text', text: 'a' }) + COMPLETE(3),
      'malformed',
      /sequence gap: expected 3, got 2/,
    );
  });

  it('fails malformed on a missing or non-digit id', async () => {
    await expectFailure(START + `event: delta\ndata: {"index":0,"type":"text","text":"a"}\n\n`, 'malformed', /no valid id/);
    await expectFailure(START + event('2x', 'delta', { index: 0, type: 'text', text: 'a' }), 'malformed', /no valid id/);
    await expectFailure(START + event('99999999999999999999', 'delta', { index: 0, type: 'text', text: 'a' }), 'malformed', /no valid id/);
  });

  it('fails format on v: 2', async () => {
    await expectFailure(event(1, 'start', { v: 2, responseId: 'r1', producerId: 'p1', createdAt: 'x' }) + COMPLETE(2), 'format', /version 2 is not supported/);
  });

  it('fails malformed when the first event is not start, or a second start comes', async () => {
    await expectFailure(event(1, 'delta', { index: 0, type: 'text', text: 'a' }), 'malformed', /first event must be start/);
    await expectFailure(START + event(2, 'start', { v: 1, responseId: 'r1', producerId: 'p1', createdAt: 'x' }), 'malformed', /second start/);
  });

  it('stops at the first terminal: a forged second terminal is never read, nothing follows the first', async () => {
    const forged = event(4, 'error', { responseId: 'r1', error: { kind: 'provider', message: 'forged' }, producerId: 'p1', by: 'producer' });
    const { outcome, log } = await view(START + event(2, 'delta', { index: 0, type: 'text', text: 'a' }) + COMPLETE(3) + forged + event(5, 'delta', { index: 1, type: 'text', text: 'b' }));
    expect(outcome.status).to.equal('completed');
    expect(log.map((c) => c.on)).to.deep.equal(['partialResponse', 'completeResponse']);
  });

  it('fails malformed on a terminal of another response', async () => {
    await expectFailure(START + event(2, 'complete', { responseId: 'other', metadata: {}, attributes: {} }), 'malformed', /response "other" in the relay of "r1"/);
  });

  it('keeps __proto__ a plain key: no prototype write from metadata, attributes or payloads', async () => {
    const body =
      START +
      event(2, 'delta', '{"index":0,"type":"text","text":"a","payload":{"provider":"p","kind":"k","data":"d","__proto__":{"polluted":true}}}') +
      event(3, 'block', '{"attributes":{"__proto__":"x","itemId":"i1"}}') +
      event(4, 'complete', '{"responseId":"r1","metadata":{"providerMetadata":{"__proto__":{"polluted":true}}},"attributes":{"__proto__":"y"}}');
    const { outcome } = await view(body);
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).to.equal(false);
    expect(outcome.status).to.equal('completed');
    const response = (outcome as { response: { metadata: { providerMetadata: Record<string, unknown> } } }).response;
    expect(Object.getPrototypeOf(response.metadata.providerMetadata)).to.not.have.property('polluted');
    expect(Object.keys(response.metadata.providerMetadata)).to.deep.equal(['__proto__']);
  });

  it('fails malformed on an event over maxFrameBytes without buffering it whole', async () => {
    const big = event(2, 'delta', { index: 0, type: 'text', text: 'x'.repeat(100_000) });
    await expectFailure(START + big + COMPLETE(3), 'malformed', /maxFrameBytes/, { maxFrameBytes: 10_000 });
  });

  it('fails malformed on fields of the wrong kind, never with a RangeError', async () => {
    await expectFailure(START + event(2, 'delta', { index: -1, type: 'text', text: 'a' }), 'malformed', /whole number/);
    await expectFailure(START + event(2, 'delta', { index: 0, type: 'media', text: 'a' }), 'malformed', /text or reasoning/);
    await expectFailure(START + event(2, 'tool-delta', { index: 0, call: 1e300, id: null, name: 'f', arguments: '{' }), 'malformed', /whole number/);
    await expectFailure(START + event(2, 'error', { responseId: 'r1', error: { kind: 'weird', message: 'm' } }), 'malformed', /stream error kind/);
    await expectFailure(START + event(2, 'delta', '['.repeat(100_000)), 'malformed', /not JSON/);
    await expectFailure(START + event(2, 'complete', { responseId: 'r1', metadata: { tokenUsage: { inputTokenCount: -5 } }, attributes: {} }), 'malformed', /inputTokenCount/);
  });

  it('surfaces an unknown event type raw and changes nothing', async () => {
    const { outcome, log } = await view(START + event(2, 'future-thing', { index: 99 }) + event(3, 'delta', { index: 0, type: 'text', text: 'a' }) + COMPLETE(4));
    expect(outcome.status).to.equal('completed');
    expect(log[0]).to.deep.equal({ on: 'unmappedRawEvent', raw: { event: 'future-thing', data: '{"index":99}' } }); // SPEC §2: a raw SSE event is {event, data}
  });

  it('fails truncated when the body ends without a terminal event', async () => {
    await expectFailure(START + event(2, 'delta', { index: 0, type: 'text', text: 'a' }), 'truncated', /after sequence 2 without its terminal event/);
  });
});
