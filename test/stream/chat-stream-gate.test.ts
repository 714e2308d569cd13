import { expect } from 'chai';
import type { ChatResponse } from '../../lib/handler/types';
import { aiMessage, chatResponse, partialResponse, responseMetadata } from '../../lib/handler/values';
import { textPart } from '../../lib/parts/factories';
import { ChatStream } from '../../lib/stream/chat-stream';

const handle = { cancel() {}, isCancelled: () => false };
const context = { streamingHandle: handle };
const first: ChatResponse = chatResponse(aiMessage([textPart('first')]), responseMetadata({ id: 'r1' }));
const second: ChatResponse = chatResponse(aiMessage([textPart('second')]), responseMetadata({ id: 'r2' }));

/** Every event as a short line. */
function record(stream: ChatStream): string[] {
  const lines: string[] = [];
  stream.on('partialResponse', (partial) => void lines.push(`partial ${partial.text}`));
  stream.on('unmappedRawEvent', () => void lines.push('raw'));
  stream.on('completeResponse', (response) => void lines.push(`complete ${response.aiMessage.text}`));
  stream.on('error', (error) => void lines.push(`error ${error.message}`));
  return lines;
}

// A handler method's promise never rejects and no listener here is async: the calls below are not awaited.
describe('ChatStream on its own (driven by hand, no driver)', () => {
  it('has no public way to emit: no emit on the stream, nor on `this` inside a listener', () => {
    const stream = new ChatStream();
    let self: unknown = null;
    stream.on('partialResponse', function (this: unknown) {
      self = this;
    });
    void stream.onPartialResponse(partialResponse('a'), context);
    expect([(stream as unknown as Record<string, unknown>).emit, self === stream]).to.deep.equal([undefined, true]);
  });

  it('emits one terminal event: a second completion or a stream error after it is dropped', async () => {
    const stream = new ChatStream();
    const lines = record(stream);
    void stream.onPartialResponse(partialResponse('a'), context);
    void stream.onCompleteResponse(first);
    void stream.onCompleteResponse(second);
    void stream.onError(new Error('late'));
    void stream.onPartialResponse(partialResponse('late'), context);
    expect(lines).to.deep.equal(['partial a', 'complete first']);
    expect((await stream.finalResponse()).metadata.id).to.equal('r1');
  });

  it('emits nothing after cancel(), whatever is called afterwards', async () => {
    const stream = new ChatStream();
    const lines = record(stream);
    void stream.onPartialResponse(partialResponse('a'), context);
    stream.cancel();
    void stream.onPartialResponse(partialResponse('b'), context);
    void stream.onUnmappedRawEvent({ late: true });
    void stream.onCompleteResponse(first);
    void stream.onError(new Error('late'));
    expect([lines, stream.status]).to.deep.equal([['partial a'], 'cancelled']);
    const error = await stream.finalResponse().then(
      () => null,
      (e: Error) => e.name,
    );
    expect(error).to.equal('AbortError');
  });

  it("emits nothing after the bound handle's signal aborted", () => {
    const stream = new ChatStream();
    const lines = record(stream);
    const controller = new AbortController();
    stream.bindStreamingHandle({ cancel: () => controller.abort(), isCancelled: () => controller.signal.aborted, signal: controller.signal });
    controller.abort();
    void stream.onPartialResponse(partialResponse('b'), context);
    void stream.onCompleteResponse(first);
    expect([lines, stream.status]).to.deep.equal([[], 'cancelled']);
  });
});
