import { expect } from 'chai';
import { runHeapScript } from '../support/heap-script';

/**
 * open-relay.ts keeps an idle recorder, writer, batch and frame so that V8 keeps their hidden
 * classes, and with them the code compiled for the per-token path, between streams. That only
 * works when an instance in use has the hidden class the idle one has: a number field that starts
 * as a small integer and later holds a time (or a double read from a table) moves its object to
 * another hidden class, which nothing keeps. Here, a relayed stream of 1,200 deltas (sequences
 * past 1,000, so the digit count changes thrice) and a tool call, run for long enough that a
 * flush checks the metadata, then V8's own comparison of each object in use with the kept one.
 */
const SCRIPT = `
const { consumeStream } = require('./lib/driver/consume-stream');
const { memoryStore } = require('./lib/relay/memory-store');
const { openRelay, KEPT_SHAPES } = require('./lib/relay/open-relay');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
const chunk = (delta, finish) => 'data: ' + JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }) + '\\n\\n';
async function* source() {
  for (let i = 0; i < 1200; i++) {
    yield chunk({ content: 'w' + i + ' ' }, null);
    if (i % 300 === 0) await new Promise((resolve) => setTimeout(resolve, 30));
  }
  yield chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }, null);
  yield chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }, null);
  yield chunk({}, 'tool_calls') + 'data: [DONE]\\n\\n';
}
(async () => {
  const relay = await openRelay(memoryStore(), { flushMs: 5 });
  const outcome = await consumeStream(source(), { onPartialResponse() {}, onCompleteResponse() {}, onError() {} }, { format: 'openai-chat', relay });
  const end = await relay.done;
  if (outcome.status !== 'completed' || end.status !== 'stored') throw new Error(outcome.status + ' ' + end.status);
  // Each kept object is compared before any of its properties is read: reading one migrates an
  // object whose hidden class was left behind to the current one, and would hide the difference.
  const recorder = relay.recorder;
  const results = ['recorder=' + sameMap(recorder, KEPT_SHAPES)];
  const keptWriter = KEPT_SHAPES.out;
  results.push('writer=' + sameMap(recorder.out, keptWriter));
  const keptBatch = keptWriter.batch;
  results.push('batch=' + sameMap(recorder.out.batch, keptBatch));
  results.push('frame=' + sameMap(recorder.out.batch.frame, keptBatch.frame));
  process.stdout.write(results.join(' '));
})();
`;

describe('Relay: the kept recorder, writer and batch have the hidden classes of ones in use', function () {
  this.timeout(60_000);

  it('a relayed stream’s recorder, writer, batch and frame end with the kept ones’ hidden classes', () => {
    const words = runHeapScript(SCRIPT, ['--allow-natives-syntax']);
    expect(words).to.deep.equal(['recorder=true', 'writer=true', 'batch=true', 'frame=true']);
  });
});
