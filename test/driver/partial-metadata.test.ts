import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import type { TextWireFormat as WireFormat } from '../support/transcripts';
import { TRANSCRIPTS, WIRE_FORMATS } from '../support/transcripts';

const noop = { onCompleteResponse: () => undefined, onError: () => undefined };

/** The id and model each hand-written transcript carries (Ollama has no response id). */
const KNOWN: Readonly<Record<WireFormat, { id: string | null; modelName: string }>> = {
  'openai-chat': { id: 'chatcmpl-t1', modelName: 'gpt-test' },
  'openai-responses': { id: 'resp_t1', modelName: 'gpt-test' },
  anthropic: { id: 'msg_t1', modelName: 'claude-test' },
  gemini: { id: 'g1', modelName: 'gemini-test' },
  ollama: { id: null, modelName: 'llama-test' },
};

/** The transcript cut right after its first complete frame or line and one more byte. */
function cutAfterFirstFrame(format: WireFormat): string {
  const text = TRANSCRIPTS[format];
  const blank = /\r?\n\r?\n/.exec(text);
  const end = format === 'ollama' ? text.indexOf('\n') + 1 : (blank?.index ?? 0) + (blank?.[0].length ?? 0);
  return text.slice(0, end + 1);
}

async function* body(...chunks: string[]): AsyncGenerator<string> {
  yield* chunks;
}

describe('consumeStream: the partial of a stream that broke off', () => {
  for (const format of WIRE_FORMATS) {
    it(`names the ${format} response id and model seen before the break`, async () => {
      const outcome = await consumeStream(body(cutAfterFirstFrame(format)), noop, { format });
      expect(outcome.status).to.equal('failed');
      if (outcome.status !== 'failed') return;
      expect({ id: outcome.partial.metadata.id, modelName: outcome.partial.metadata.modelName }).to.deep.equal(KNOWN[format]);
    });
  }

  it('names them in the partial of a cancelled stream too', async () => {
    const controller = new AbortController();
    const outcome = await consumeStream(body(TRANSCRIPTS.anthropic), { ...noop, onPartialResponse: () => controller.abort() }, { format: 'anthropic', signal: controller.signal });
    expect(outcome.status).to.equal('cancelled');
    expect(outcome.status === 'cancelled' && outcome.partial.metadata.id).to.equal('msg_t1');
    expect(outcome.status === 'cancelled' && outcome.partial.aiMessage.text).to.equal('Hello from ');
  });
});
