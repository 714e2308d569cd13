import { expect } from 'chai';
import { inspect } from 'node:util';
import { consumeStream } from '../../lib/driver/consume-stream';
import { partialResponse } from '../../lib/handler/values';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import type { MapperTarget, StreamMapper } from '../../lib/providers/stream-mapper';
import { ChatStream } from '../../lib/stream/chat-stream';
import type { SseFrame } from '../../lib/wire/types';
import { trackedSource } from '../support/chunk-sources';
import { TRANSCRIPTS } from '../support/transcripts';

/** A handler that keeps the raw events it is given. */
function rawCollector(): StreamingChatResponseHandler & { readonly raw: unknown[] } {
  const raw: unknown[] = [];
  return { raw, onUnmappedRawEvent: (event) => void raw.push(event), onCompleteResponse() {}, onError() {} };
}

/** A raw SSE event as SPEC §2 describes it: a plain object with exactly `event` and `data`, printed as one. */
function expectPlainSseEvent(raw: unknown, expected: { event: string | null; data: string }): void {
  expect(Object.getPrototypeOf(raw)).to.equal(Object.prototype);
  expect(raw).to.deep.equal(expected);
  expect(Object.keys(raw as object)).to.deep.equal(['event', 'data']);
  expect(inspect(raw)).to.equal(inspect({ event: expected.event, data: expected.data }));
  expect(inspect(raw)).to.match(/^\{\s+event: /);
}

/** Every raw event is a plain `{event, data}`; returns the one named `name`. */
function named(raw: readonly unknown[], name: string): unknown {
  expect(raw.length).to.be.greaterThan(0);
  for (const event of raw) {
    expect(Object.getPrototypeOf(event)).to.equal(Object.prototype);
    expect(Object.keys(event as object)).to.deep.equal(['event', 'data']);
  }
  const found = raw.filter((event) => (event as { event: unknown }).event === name);
  expect(found).to.have.length(1);
  return found[0];
}

/** Maps `{"text"}` frames to text, surfaces `{"partly"}` ones raw too (surfaceRaw), leaves the rest unmapped. */
class PlainSseMapper implements StreamMapper<SseFrame> {
  readonly framing = 'sse' as const;
  map(frame: SseFrame, target: MapperTarget): boolean {
    const value = JSON.parse(frame.data) as { text?: string; partly?: string; stop?: boolean };
    if (value.text !== undefined) target.handler.onPartialResponse?.(partialResponse(value.text), { streamingHandle: target.handle });
    if (value.partly !== undefined) {
      target.handler.onPartialResponse?.(partialResponse(value.partly), { streamingHandle: target.handle });
      target.surfaceRaw?.();
    }
    return value.stop === true;
  }
  end(target: MapperTarget): void {
    target.handler.onError(new Error('unused'));
  }
}

describe('Raw SSE events are plain {event, data} objects (SPEC §2)', () => {
  it('Anthropic: a ping reaches onUnmappedRawEvent as { event: "ping", data }', async () => {
    const handler = rawCollector();
    await consumeStream(trackedSource([TRANSCRIPTS.anthropic]), handler, { format: 'anthropic' });
    expectPlainSseEvent(named(handler.raw, 'ping'), { event: 'ping', data: '{"type":"ping"}' });
  });

  it('OpenAI Responses: an event type the mapper does not know, with several data lines', async () => {
    const unknown = 'event: response.brand_new\ndata: {"type":"response.brand_new",\ndata:  "x":1}\n\n';
    const [created, ...rest] = TRANSCRIPTS['openai-responses'].split(/(?<=\n\n)/);
    const handler = rawCollector();
    const outcome = await consumeStream(trackedSource([created as string, unknown, ...rest]), handler, { format: 'openai-responses' });
    expect(outcome.status).to.equal('completed');
    expectPlainSseEvent(named(handler.raw, 'response.brand_new'), { event: 'response.brand_new', data: '{"type":"response.brand_new",\n "x":1}' });
  });

  it('a custom SSE adapter: an unmapped event and one marked surfaceRaw, unnamed events with a null event', async () => {
    const body = 'data: {"text":"a"}\n\ndata: {"other":1}\n\nevent: note\ndata: {"partly":"b"}\n\ndata: {"stop":true}\n\n';
    const handler = rawCollector();
    await consumeStream(trackedSource([body]), handler, { adapter: () => new PlainSseMapper() });
    expect(handler.raw).to.have.length(3);
    expectPlainSseEvent(handler.raw[0], { event: null, data: '{"other":1}' });
    expectPlainSseEvent(handler.raw[1], { event: 'note', data: '{"partly":"b"}' });
    // The terminal event reached no callback: surfaced raw too, then the adapter's end is not called.
    expectPlainSseEvent(handler.raw[2], { event: null, data: '{"stop":true}' });
  });

  it('ChatStream: the unmappedRawEvent listener and the for-await event get the plain object', async () => {
    const stream = new ChatStream();
    const heard: unknown[] = [];
    stream.on('unmappedRawEvent', (raw) => void heard.push(raw));
    const iterated: unknown[] = [];
    const loop = (async () => {
      for await (const event of stream) if (event.type === 'unmappedRawEvent') iterated.push(event.rawEvent);
    })();
    await consumeStream(trackedSource([TRANSCRIPTS.anthropic]), stream, { format: 'anthropic' });
    await loop;
    expect(iterated.length).to.equal(heard.length);
    expectPlainSseEvent(named(heard, 'ping'), { event: 'ping', data: '{"type":"ping"}' });
    expectPlainSseEvent(named(iterated, 'ping'), { event: 'ping', data: '{"type":"ping"}' });
  });
});
