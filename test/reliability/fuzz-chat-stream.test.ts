import { expect } from 'chai';
import fc from 'fast-check';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import type { ChatResponse } from '../../lib/handler/types';
import { consumeStream } from '../../lib/driver/consume-stream';
import { ChatStream } from '../../lib/stream/chat-stream';
import { CALLBACK_OF_EVENT, CHAT_STREAM_EVENT_NAMES, type ChatStreamEvent, type ChatStreamEventName } from '../../lib/stream/chat-stream-events';
import { corpus, corpusNote } from './support/fixture-corpus';
import { checkFixture, eachFixture, fuzzedFixtures, replayNote, runsPerFixture } from './support/fuzz-config';
import { replay, splitAt, summarise, trackedBody, whole, type Call, type CallbackName, type Delay } from './support/replay';
import { watchUnhandled, type UnhandledWatch } from './support/unhandled-watch';

/** An event's first argument, recorded like a handler callback (errors summarised). */
function asCall(name: ChatStreamEventName, value: unknown): Call {
  return { on: CALLBACK_OF_EVENT[name] as CallbackName, value: name === 'error' ? summarise(value as Error) : value };
}

function fromIterated(event: ChatStreamEvent): Call {
  switch (event.type) {
    case 'partialResponse':
    case 'partialThinking':
    case 'partialToolCall':
      return asCall(event.type, event.partial);
    case 'completeToolCall':
      return asCall(event.type, event.complete);
    case 'unmappedRawEvent':
      return asCall(event.type, event.rawEvent);
    case 'completeResponse':
      return asCall(event.type, event.response);
    case 'error':
      return asCall(event.type, event.error);
    default: {
      const never: never = event;
      throw new TypeError(`Expected a ChatStream event, got ${JSON.stringify(never)}`);
    }
  }
}

const fixtures = fuzzedFixtures(corpus());

describe(`fuzz: ChatStream listeners (${replayNote()})${corpusNote('fuzz: ChatStream')}`, () => {
  let watch: UnhandledWatch;
  before(() => {
    watch = watchUnhandled();
  });
  after(() => watch.uninstall());

  const runs = runsPerFixture(fixtures.length, 0.5);
  it(`gives every listener and the async iterator the plain handler’s callbacks, isolates a throwing listener, and settles finalResponse() alike (${runs} cases per fixture)`, async function () {
    this.timeout(0);
    await eachFixture(fixtures, async (fixture) => {
      const reference = await replay(whole(fixture.bytes), fixture.format);
      await checkFixture(
        'ChatStream listeners',
        fixture,
        fc.record({
          throwAt: fc.uniqueArray(fc.nat({ max: reference.calls.length }), { maxLength: 6 }),
          offsets: fc.array(fc.nat({ max: fixture.bytes.length }), { maxLength: 16 }),
          delays: fc.array(fc.constantFrom<Delay>(0, 1, 4), { maxLength: 3 }),
        }),
        async ({ throwAt, offsets, delays }) => {
          const mark = watch.escaped.length;
          const stream = new ChatStream();
          const throws = new Set(throwAt);
          let seen = 0;
          const heard: Call[] = [];
          for (const name of CHAT_STREAM_EVENT_NAMES) {
            // The first listener throws at the chosen events; the second must hear every event anyway.
            listen(stream, name, (value) => {
              if (name === 'error' && HandlerCallbackError.isInstance(value)) return;
              if (throws.has(seen++)) throw new Error(`listener throws at ${name}`);
            });
            listen(stream, name, (value) => {
              heard.push(asCall(name, value));
            });
          }
          const iterated: Call[] = [];
          const iterating = (async () => {
            for await (const event of stream) iterated.push(fromIterated(event));
          })();
          const final = stream.finalResponse().then(
            (response): { response: ChatResponse } => ({ response }),
            (error: Error) => ({ error: summarise(error) }),
          );
          const outcome = await consumeStream(trackedBody(splitAt(fixture.bytes, offsets), 'iterable', delays).source, stream, { format: fixture.format });
          await iterating;

          const expected: Call[] = [];
          reference.calls.forEach((call, own) => {
            expected.push(call);
            if (throws.has(own) && call.on !== 'onError') expected.push({ on: 'onError', value: summarise(new HandlerCallbackError(call.on, new Error(`listener throws at ${eventOf(call.on)}`))) });
          });
          expect(heard, 'the second listener').to.deep.equal(expected);
          // The iterator ends with the terminal event (a throwing completeResponse listener's report comes after it).
          const terminal = expected.findIndex((call) => call.on === 'onCompleteResponse' || (call.on === 'onError' && (call.value as { callbackName?: string }).callbackName === undefined));
          expect(iterated, 'the async iterator').to.deep.equal(expected.slice(0, terminal + 1));
          expect(outcome.status).to.equal(reference.outcome.status);
          expect(reference.outcome.status === 'completed' ? { response: reference.message } : { error: summarise(reference.errors[reference.errors.length - 1] as Error) }).to.deep.equal(await final);
          await watch.settle(mark);
        },
        runs,
      );
    });
  });
});

/** Adds a listener to any event, whatever its arguments (the test records the first). */
function listen(stream: ChatStream, name: ChatStreamEventName, listener: (value: unknown) => void): void {
  (stream as unknown as { on(event: string, fn: (value: unknown) => void): unknown }).on(name, listener);
}

function eventOf(callback: CallbackName): ChatStreamEventName {
  const name = CHAT_STREAM_EVENT_NAMES.find((event) => CALLBACK_OF_EVENT[event] === callback);
  if (name === undefined) throw new TypeError(`Expected a callback name, got ${callback}`);
  return name;
}
