import { expect } from 'chai';
import fc from 'fast-check';
import { consumeStream } from '../../../lib/driver/consume-stream';
import type { StreamingChatResponseHandler } from '../../../lib/handler/types';
import { OllamaMapper } from '../../../lib/providers/ollama/ollama-mapper';
import { comparable } from '../shared/split-suite';
import type { RecordedEvent } from '../shared/fixture-support';

// consumeStream reads Ollama's lines with `parseOllamaLine`; a custom NDJSON adapter's lines go
// through JSON.parse. The same mapper behind both must give the same callbacks on any stream.

type Mode = 'ollama' | 'adapter';

async function callbacks(body: string, mode: Mode): Promise<unknown[]> {
  const events: RecordedEvent[] = [];
  const handler: StreamingChatResponseHandler = {
    onPartialResponse: (partial) => events.push(['partialResponse', partial]),
    onPartialThinking: (partial) => events.push(['partialThinking', partial]),
    onCompleteToolCall: (complete) => events.push(['completeToolCall', complete]),
    onUnmappedRawEvent: (raw) => events.push(['unmappedRawEvent', raw]),
    onCompleteResponse: (response) => events.push(['completeResponse', response]),
    onError: (error) => events.push(['error', error]),
  };
  const bytes = new TextEncoder().encode(body);
  async function* source(): AsyncGenerator<Uint8Array> {
    // Two pieces, so that a line may be cut anywhere.
    const cut = Math.floor(bytes.length / 2);
    yield bytes.subarray(0, cut);
    yield bytes.subarray(cut);
  }
  await consumeStream(source(), handler, mode === 'ollama' ? { format: 'ollama' } : { format: 'ndjson', adapter: () => new OllamaMapper() });
  return comparable(events);
}

const head = (model: string, created: string): string => `{"model":${JSON.stringify(model)},"created_at":${JSON.stringify(created)}`;

/** Lines of an Ollama stream: compact token lines of any strings, near misses and tool calls. */
const lineArb = fc.oneof(
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 12 }))
    .map(([model, created, text]) => `${head(model, created)},"message":{"role":"assistant","content":${JSON.stringify(text)}},"done":false}`),
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 12 }))
    .map(([model, text]) => `${head(model, 'c')},"message":{"role":"assistant","content":"","thinking":${JSON.stringify(text)}},"done":false}`),
  fc.string({ maxLength: 6 }).map((text) => `${head('q', 'c')},"message":{"role":"assistant","content":${JSON.stringify(text)},"x":1},"done":false}`),
  fc.string({ maxLength: 6 }).map((text) => `${head('q', 'c')},"message":{"role":"assistant","content":${JSON.stringify(text)}},"done":false} `),
  fc
    .string({ maxLength: 6 })
    .map((name) => `${head('q', 'c')},"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":${JSON.stringify(name)},"arguments":{"a":1}}}]},"done":false}`),
  fc.constant(`${head('q', 'c')},"message":{"role":"assistant","content":"a\\"},"done":false}`),
  fc.constant('{"error":"boom"}'),
);

const DONE = `${head('q', 'c')},"message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":3,"eval_count":4}`;

describe('Ollama lines read by consumeStream', () => {
  it('give the callbacks JSON.parse gives, with the same mapper behind a custom NDJSON adapter (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { maxLength: 8 }), fc.boolean(), async (lines, done) => {
        const body = [...lines, ...(done ? [DONE] : [])].join('\n') + '\n';
        const fast = await callbacks(body, 'ollama');
        expect(fast.length).to.be.greaterThan(0);
        expect(fast).to.deep.equal(await callbacks(body, 'adapter'));
      }),
      { seed: 2121, numRuns: 300 },
    );
  });
});
