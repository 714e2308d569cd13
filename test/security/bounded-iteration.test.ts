import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import { CHAT_STREAM_HIGH_WATER_MARK, CHAT_STREAM_LOW_WATER_MARK, ChatStream } from '../../lib/stream/chat-stream';
import { within } from '../support/http-clients';

// SPEC §11: `for await` over a ChatStream is bounded; when the loop falls behind by the high-water
// mark, the source waits (through the async callback rule of §1) until it catches up.

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A chat-completions source of `n` one-character content deltas, one SSE frame per chunk, counting the chunks read. */
function countingSource(n: number): { source: AsyncIterable<string>; readonly pulled: number } {
  const frame = (delta: unknown, finish: string | null = null): string =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const content = frame({ content: 'x' });
  const state = { pulled: 0 };
  async function* generate(): AsyncGenerator<string> {
    for (let i = 0; i < n; i++) {
      state.pulled++;
      yield content;
    }
    state.pulled++;
    yield frame({}, 'stop') + 'data: [DONE]\n\n';
  }
  return {
    source: generate(),
    get pulled() {
      return state.pulled;
    },
  };
}

describe('for await over a ChatStream (SPEC §11: bounded)', () => {
  it('keeps a slow loop at most the high-water mark behind the source, over 100,000 events', async function () {
    this.timeout(60_000);
    const n = 100_000;
    const counting = countingSource(n);
    const stream = new ChatStream();
    const done = consumeStream(counting.source, stream, { format: 'openai-chat' });
    let read = 0;
    let maxAhead = 0;
    let text = 0;
    let last: string | null = null;
    const loop = async (): Promise<void> => {
      for await (const event of stream) {
        if (event.type === 'partialResponse') {
          read++;
          text += event.partial.text.length;
          // Chunks read from the source that the loop has not seen yet (one event per chunk).
          maxAhead = Math.max(maxAhead, counting.pulled - read);
        }
        last = event.type;
        await nextTurn();
      }
    };
    // About a second normally; a source that is never let go again fails here instead of hanging.
    const finished = await within(loop(), 30_000);
    if (!finished) stream.cancel();
    expect(finished, 'the loop finished').to.equal(true);
    const outcome = await done;
    expect(outcome.status).to.equal('completed');
    expect([read, text, last]).to.deep.equal([n, n, 'completeResponse']);
    // The loop's buffer, plus the chunk the driver holds while it waits.
    expect(maxAhead).to.be.at.most(CHAT_STREAM_HIGH_WATER_MARK + 1);
    // It did fall behind: the bound was reached, not merely never approached.
    expect(maxAhead).to.be.at.least(CHAT_STREAM_LOW_WATER_MARK);
  });

  it('lets a loop that breaks while the source waits cancel the stream at once', async () => {
    const counting = countingSource(10_000);
    const stream = new ChatStream();
    const done = consumeStream(counting.source, stream, { format: 'openai-chat' });
    let read = 0;
    for await (const event of stream) {
      if (event.type !== 'partialResponse') continue;
      // Give the source time to run into the high-water mark first.
      if (read === 0) for (let i = 0; i < 50; i++) await nextTurn();
      if (++read === 5) break;
    }
    expect(await within(done, 5_000), 'consumeStream settled').to.equal(true);
    expect((await done).status).to.equal('cancelled');
    expect(counting.pulled).to.be.at.most(CHAT_STREAM_HIGH_WATER_MARK + 1);
  });

  it('lets a cancel made elsewhere end a stream held by a loop that stopped reading', async () => {
    const counting = countingSource(10_000);
    const stream = new ChatStream();
    const done = consumeStream(counting.source, stream, { format: 'openai-chat' });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    for (let i = 0; i < 50; i++) await nextTurn();
    const heldAt = counting.pulled;
    stream.cancel();
    expect(await within(done, 5_000), 'consumeStream settled').to.equal(true);
    expect((await done).status).to.equal('cancelled');
    expect(heldAt).to.be.at.most(CHAT_STREAM_HIGH_WATER_MARK + 2);
    expect(counting.pulled).to.equal(heldAt);
  });

  it('holds nothing back for a stream nobody iterates (listeners and finalResponse only)', async () => {
    const counting = countingSource(1_000);
    const stream = new ChatStream();
    let seen = 0;
    stream.on('partialResponse', () => void seen++);
    const outcome = await consumeStream(counting.source, stream, { format: 'openai-chat' });
    expect([outcome.status, seen, (await stream.finalResponse()).aiMessage.text?.length]).to.deep.equal(['completed', 1_000, 1_000]);
  });
});
