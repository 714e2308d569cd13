import { expect } from 'chai';
import { consumeStream } from '../../lib/driver/consume-stream';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import { StreamError } from '../../lib/handler/stream-error';
import type { StreamingChatResponseHandler } from '../../lib/handler/types';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialToolCall, responseMetadata } from '../../lib/handler/values';
import type { MapperTarget, StreamMapper } from '../../lib/providers/stream-mapper';
import type { SseFrame } from '../../lib/wire/types';
import { expectRejection } from '../support/rejection';

/** A body of SSE events, one chunk each (or all in one chunk). */
async function* sse(events: ReadonlyArray<readonly [string, string]>, oneChunk = false): AsyncGenerator<string> {
  const frames = events.map(([event, data]) => `event: ${event}\ndata: ${data}\n\n`);
  if (oneChunk) yield frames.join('');
  else yield* frames;
}

/** A body of NDJSON lines, one chunk each. */
async function* ndjson(lines: readonly string[]): AsyncGenerator<string> {
  for (const line of lines) yield `${line}\n`;
}

/**
 * A provider author's mapper, keyed by event name: `text` (a partial; with `+raw` in its data it
 * also calls `surfaceRaw`, twice), `args <i> <name> <piece>`, `call <i> <name> <json>`, `done`
 * (onCompleteResponse inside map, returns true), `stop` (returns true, `end` completes), `fail`
 * (onError inside map). Anything else maps nothing. It records what the driver called.
 */
class ScriptMapper implements StreamMapper<SseFrame> {
  readonly framing = 'sse' as const;
  readonly log: string[] = [];
  private stopped = false;

  map(frame: SseFrame, target: MapperTarget): boolean {
    this.log.push(`map ${frame.event ?? ''}`);
    const context = { streamingHandle: target.handle };
    const [first = '', second = '', ...rest] = frame.data.split(' ');
    switch (frame.event) {
      case 'text':
        target.handler.onPartialResponse?.(partialResponse(frame.data.replace('+raw', '')), context);
        if (frame.data.includes('+raw')) {
          target.surfaceRaw?.();
          target.surfaceRaw?.();
        }
        return false;
      case 'args':
        target.handler.onPartialToolCall?.(partialToolCall(Number(first), null, second, rest.join(' ')), context);
        return false;
      case 'call':
        target.handler.onCompleteToolCall?.(completeToolCall(Number(first), { id: null, name: second, arguments: rest.join(' ') }));
        return false;
      case 'done':
        target.handler.onCompleteResponse(chatResponse(aiMessage([]), responseMetadata({ finishReason: 'STOP' })));
        return true;
      case 'stop':
        this.stopped = true;
        return true;
      case 'fail':
        target.handler.onError(new StreamError('provider', frame.data));
        return false;
      default:
        return false;
    }
  }

  end(target: MapperTarget, truncatedFrame: boolean): void {
    this.log.push(`end ${truncatedFrame}`);
    if (this.stopped) target.handler.onCompleteResponse(chatResponse(aiMessage([]), responseMetadata({ finishReason: 'STOP' })));
  }
}

/** Records each callback as a short line; `hooks` run after the recording. */
function recorder(hooks: Partial<StreamingChatResponseHandler> = {}): StreamingChatResponseHandler & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    onPartialResponse: (partial, context) => (lines.push(`text ${partial.text}`), hooks.onPartialResponse?.(partial, context)),
    onPartialToolCall: (partial, context) => (lines.push(`args ${partial.index} ${partial.partialArguments}`), hooks.onPartialToolCall?.(partial, context)),
    onCompleteToolCall: (complete) => (lines.push(`call ${complete.toolExecutionRequest.arguments}`), hooks.onCompleteToolCall?.(complete)),
    onUnmappedRawEvent: (raw) => (lines.push(`raw ${JSON.stringify(raw)}`), hooks.onUnmappedRawEvent?.(raw)),
    onCompleteResponse: (response) => (lines.push(`complete ${response.aiMessage.text}`), hooks.onCompleteResponse?.(response)),
    onError: (error) => {
      lines.push(`error ${error.name} ${HandlerCallbackError.isInstance(error) ? error.callbackName : (error as StreamError).kind}`);
      return hooks.onError?.(error);
    },
  };
}

describe("consumeStream with a provider author's adapter", () => {
  it('maps SSE events and surfaces the unmapped ones raw, once each', async () => {
    const mapper = new ScriptMapper();
    const user = recorder();
    const outcome = await consumeStream(
      sse([
        ['text', 'Hi'],
        ['ping', '{}'],
        ['text', ' there'],
        ['done', '.'],
      ]),
      user,
      { format: 'sse', adapter: () => mapper },
    );
    expect(user.lines).to.deep.equal(['text Hi', 'raw {"event":"ping","data":"{}"}', 'text  there', 'complete Hi there']);
    expect(outcome.status).to.equal('completed');
    // A terminal callback delivered while mapping: map is not called again, end is never called.
    expect(mapper.log).to.deep.equal(['map text', 'map ping', 'map text', 'map done']);
  });

  it('surfaces a partly mapped event (surfaceRaw) raw too, exactly once, after its callbacks', async () => {
    const user = recorder();
    await consumeStream(
      sse([
        ['text', 'a+raw'],
        ['text', 'b'],
        ['done', '.'],
      ]),
      user,
      { format: 'sse', adapter: () => new ScriptMapper() },
    );
    expect(user.lines).to.deep.equal(['text a', 'raw {"event":"text","data":"a+raw"}', 'text b', 'complete ab']);
  });

  it('maps NDJSON values (surfaceRaw too); a line that is not JSON surfaces as its text without reaching the mapper', async () => {
    const seen: unknown[] = [];
    const adapter = (): StreamMapper<unknown> => ({
      framing: 'ndjson',
      map(value, target) {
        seen.push(value);
        const { t: text, extra } = value as { t?: unknown; extra?: unknown };
        if (typeof text === 'string') target.handler.onPartialResponse?.(partialResponse(text), { streamingHandle: target.handle });
        // Content the handler API does not model: surface the whole line raw as well.
        if (extra !== undefined) target.surfaceRaw?.();
        return false;
      },
      end(target) {
        target.handler.onCompleteResponse(chatResponse(aiMessage([])));
      },
    });
    const user = recorder();
    const outcome = await consumeStream(ndjson(['{"t":"x"}', 'not json', '{"k":1}', '{"t":"y","extra":2}']), user, { format: 'ndjson', adapter });
    expect(user.lines).to.deep.equal(['text x', 'raw "not json"', 'raw {"k":1}', 'text y', 'raw {"t":"y","extra":2}', 'complete xy']);
    expect(seen).to.deep.equal([{ t: 'x' }, { k: 1 }, { t: 'y', extra: 2 }]);
    expect(outcome.status).to.equal('completed');
  });

  it('calls end once, after the event map said was the last; the body after it is not read', async () => {
    const mapper = new ScriptMapper();
    const user = recorder();
    await consumeStream(
      sse([
        ['text', 'a'],
        ['stop', '.'],
        ['text', 'late'],
      ]),
      user,
      { format: 'sse', adapter: () => mapper },
    );
    expect(mapper.log).to.deep.equal(['map text', 'map stop', 'end false']);
    expect(user.lines).to.deep.equal(['text a', 'raw {"event":"stop","data":"."}', 'complete a']);
  });

  it('fails truncated when the body ends and end gives no terminal callback; map is not called after onError', async () => {
    const mapper = new ScriptMapper();
    const user = recorder();
    const outcome = await consumeStream(sse([['text', 'a']]), user, { format: 'sse', adapter: () => mapper });
    expect(user.lines).to.deep.equal(['text a', 'error StreamError truncated']);
    expect(outcome.status).to.equal('failed');

    const failing = new ScriptMapper();
    const second = recorder();
    await consumeStream(
      sse([
        ['fail', 'overloaded'],
        ['text', 'late'],
        ['done', '.'],
      ]),
      second,
      { format: 'sse', adapter: () => failing },
    );
    expect(second.lines).to.deep.equal(['error StreamError provider']);
    expect(failing.log).to.deep.equal(['map fail']);
  });

  it('a cancel in the middle of a tool call stops everything and keeps the call, marked incomplete', async () => {
    const mapper = new ScriptMapper();
    const user = recorder({ onPartialToolCall: (_partial, context) => context.streamingHandle.cancel() });
    // One chunk: the events after the cancel are already decoded, and still never mapped.
    const body = sse(
      [
        ['text', 'Look'],
        ['args', '0 f {"a":'],
        ['args', '0 f 1}'],
        ['call', '0 f {"a":1}'],
        ['done', '.'],
      ],
      true,
    );
    const outcome = await consumeStream(body, user, {
      format: 'sse',
      adapter: () => mapper,
    });
    expect(user.lines).to.deep.equal(['text Look', 'args 0 {"a":']);
    expect(mapper.log).to.deep.equal(['map text', 'map args']);
    expect(outcome.status).to.equal('cancelled');
    const parts = outcome.status === 'cancelled' ? outcome.partial.aiMessage.parts : [];
    expect(parts.map((part) => [part.type, part.type === 'tool_call' ? part.toolCall.arguments : '', part.attributes])).to.deep.equal([
      ['text', '', {}],
      ['tool_call', '{"a":', { incomplete: 'true' }],
    ]);
  });

  it('reports throwing and rejecting callbacks as HandlerCallbackErrors and goes on', async () => {
    let calls = 0;
    const user = recorder({
      onPartialResponse: () => {
        calls += 1;
        if (calls === 1) throw new Error('sync bug');
        if (calls === 2) return Promise.reject(new Error('async bug'));
        return undefined;
      },
    });
    const outcome = await consumeStream(
      sse([
        ['text', 'a'],
        ['text', 'b'],
        ['text', 'c'],
        ['done', '.'],
      ]),
      user,
      { format: 'sse', adapter: () => new ScriptMapper() },
    );
    expect(user.lines).to.deep.equal(['text a', 'error HandlerCallbackError onPartialResponse', 'text b', 'error HandlerCallbackError onPartialResponse', 'text c', 'complete abc']);
    expect(outcome.status).to.equal('completed');
  });

  it('a throwing onCompleteResponse is reported once, and nothing follows it', async () => {
    const user = recorder({
      onCompleteResponse: () => {
        throw new Error('boom');
      },
    });
    const outcome = await consumeStream(
      sse([
        ['text', 'a'],
        ['done', '.'],
        ['text', 'late'],
      ]),
      user,
      { format: 'sse', adapter: () => new ScriptMapper() },
    );
    expect(user.lines).to.deep.equal(['text a', 'complete a', 'error HandlerCallbackError onCompleteResponse']);
    expect(outcome.status).to.equal('completed');
  });

  it('a mapper that throws fails the stream malformed, once', async () => {
    const adapter = (): StreamMapper<SseFrame> => ({
      framing: 'sse',
      map() {
        throw new Error('mapper bug');
      },
      end() {
        throw new Error('end must not run');
      },
    });
    const user = recorder();
    const outcome = await consumeStream(
      sse([
        ['text', 'a'],
        ['text', 'b'],
      ]),
      user,
      { format: 'sse', adapter },
    );
    expect(user.lines).to.deep.equal(['error StreamError malformed']);
    expect(outcome.status === 'failed' && outcome.error.message).to.equal('A frame could not be mapped: mapper bug');
  });

  it('creates one mapper per stream, so one options object serves many streams', async () => {
    let created = 0;
    const options = { format: 'sse', adapter: () => (created++, new ScriptMapper()) } as const;
    const first = recorder();
    const second = recorder();
    await consumeStream(sse([['stop', '.']]), first, options);
    await consumeStream(sse([['text', 'x']]), second, options);
    expect(created).to.equal(2);
    expect([first.lines, second.lines]).to.deep.equal([
      ['raw {"event":"stop","data":"."}', 'complete null'],
      ['text x', 'error StreamError truncated'],
    ]);
  });

  it('takes a mapper instance that declares its framing (no format), for one stream', async () => {
    const mapper = Object.assign(new ScriptMapper(), { framing: 'sse' as const });
    const user = recorder();
    const outcome = await consumeStream(
      sse([
        ['text', 'a'],
        ['done', '.'],
      ]),
      user,
      { adapter: mapper },
    );
    expect([user.lines, outcome.status]).to.deep.equal([['text a', 'complete a'], 'completed']);
    await expectRejection(
      () => consumeStream(sse([]), recorder(), { adapter: mapper }),
      TypeError,
      'Expected a StreamMapper that has not served a stream yet; pass a function that creates one per stream (() => new MyMapper())',
    );
  });

  it('rejects with a TypeError for an adapter of the wrong kind', async () => {
    const handler = recorder();
    const body = sse([]);
    await expectRejection(
      () => consumeStream(body, handler, { format: 'sse', adapter: 'mapper' as never }),
      TypeError,
      'Expected adapter to be a StreamMapper or a function that creates one, got string "mapper"',
    );
    await expectRejection(
      () => consumeStream(body, handler, { format: 'anthropic', adapter: () => new ScriptMapper() } as never),
      TypeError,
      'Expected format to be sse or ndjson with an adapter, got string "anthropic"',
    );
    await expectRejection(
      () => consumeStream(body, handler, { format: 'sse', adapter: () => ({ map() {} }) as never }),
      TypeError,
      'Expected adapter to be or to return a StreamMapper (with map and end methods), got ',
    );
    await expectRejection(
      () => consumeStream(body, handler, { adapter: () => ({ map: () => false, end: () => undefined }) } as never),
      TypeError,
      "Expected format (or the mapper's framing) to be sse or ndjson, got undefined",
    );
    await expectRejection(
      () => consumeStream(body, handler, { format: 'ndjson', adapter: Object.assign(new ScriptMapper(), { framing: 'sse' }) } as never),
      TypeError,
      'Expected the mapper\'s framing to match format ndjson, got string "sse"',
    );
    expect(handler.lines).to.deep.equal([]);
  });
});

describe("consumeStream refuses a provider author's adapter output that breaks the handler API", () => {
  /** A mapper whose every `map` runs `step` (its answer is map's answer) and whose `end` completes, unless given its own. */
  function adapterOf(step: (target: MapperTarget, frame: SseFrame) => unknown, end?: (target: MapperTarget) => unknown): () => StreamMapper<SseFrame> {
    return () => ({
      framing: 'sse',
      map: (frame, target) => step(target, frame) as boolean,
      end: (end ?? ((target) => target.handler.onCompleteResponse(chatResponse(aiMessage([]), responseMetadata({ finishReason: 'STOP' }))))) as (target: MapperTarget) => void,
    });
  }

  async function refused(adapter: () => StreamMapper<SseFrame>): Promise<{ lines: string[]; message: string; parts: unknown[] }> {
    const user = recorder();
    const outcome = await consumeStream(
      sse([
        ['a', '1'],
        ['b', '2'],
        ['c', '3'],
      ]),
      user,
      { format: 'sse', adapter },
    );
    expect(outcome.status, JSON.stringify(user.lines)).to.equal('failed');
    if (outcome.status !== 'failed') throw new Error('unreachable');
    expect(StreamError.isInstance(outcome.error) && outcome.error.kind).to.equal('malformed');
    return { lines: user.lines, message: outcome.error.message, parts: [...outcome.partial.aiMessage.parts] };
  }

  const context = (target: MapperTarget) => ({ streamingHandle: target.handle });

  describe('a map() that answers neither a boolean nor undefined', () => {
    const answers: ReadonlyArray<readonly [string, () => unknown, string]> = [
      ['an async map (a Promise)', () => Promise.resolve(false), 'a Promise'],
      ['an async map that rejects', () => Promise.reject(new Error('late')), 'a Promise'],
      ['a number', () => 1, 'number 1'],
      ['a string', () => 'done', 'string "done"'],
      ['null', () => null, 'null'],
      ['an object', () => ({}), 'an object'],
    ];
    for (const [name, answer, got] of answers) {
      it(`${name}: one malformed onError naming it, and the rest of the body is never taken for read`, async () => {
        const seen: string[] = [];
        const { lines, message } = await refused(
          adapterOf((target, frame) => {
            seen.push(frame.event ?? '');
            return answer();
          }),
        );
        expect(lines).to.deep.equal(['error StreamError malformed']);
        expect(message).to.equal(`A frame could not be mapped: Expected the mapper's map() to return a boolean or undefined, got ${got}`);
        expect(seen).to.deep.equal(['a']);
      });
    }

    it('undefined (a mapper that returns nothing) reads on: every event is mapped and the stream completes', async () => {
      const user = recorder();
      const adapter = adapterOf((target, frame) => {
        target.handler.onPartialResponse?.(partialResponse(frame.data), context(target));
        return undefined;
      });
      const outcome = await consumeStream(
        sse([
          ['a', '1'],
          ['b', '2'],
          ['c', '3'],
        ]),
        user,
        { format: 'sse', adapter },
      );
      expect([outcome.status, user.lines]).to.deep.equal(['completed', ['text 1', 'text 2', 'text 3', 'complete 123']]);
    });
  });

  describe('a response that is no ChatResponse', () => {
    const responses: ReadonlyArray<readonly [string, unknown, string]> = [
      ['null', null, "Expected the adapter's onCompleteResponse to get a ChatResponse {aiMessage, metadata}, got null"],
      ['{}', {}, "Expected the adapter's onCompleteResponse response.aiMessage to be an AiMessage {parts, attributes}, got undefined"],
      ['parts that are no array', { aiMessage: { parts: 'x', attributes: {} } }, 'Expected the adapter\'s onCompleteResponse response.aiMessage.parts to be an array of parts, got string "x"'],
      ['a part that is null', { aiMessage: { parts: [null], attributes: {} } }, "Expected the adapter's onCompleteResponse response.aiMessage.parts[0] to be a message part, got null"],
      [
        'an attribute that is no string',
        { aiMessage: { parts: [], attributes: { refusal: 1 } } },
        "Expected the adapter's onCompleteResponse response.aiMessage.attributes.refusal to be a string, got number 1",
      ],
      [
        'an unknown finish reason',
        { aiMessage: aiMessage([]), metadata: { finishReason: 'DONE' } },
        "Expected the adapter's onCompleteResponse response.metadata.finishReason to be 'STOP', 'LENGTH', 'TOOL_EXECUTION', 'CONTENT_FILTER', 'OTHER' or null, got string \"DONE\"",
      ],
      ['an id that is no string', { aiMessage: aiMessage([]), metadata: { id: 7 } }, "Expected the adapter's onCompleteResponse response.metadata.id to be a string or null, got number 7"],
    ];
    for (const [name, response, expected] of responses) {
      it(`${name}: failed with one malformed onError, never completed (nor cancelled), and the text kept`, async () => {
        const { lines, message, parts } = await refused(
          adapterOf(
            (target, frame) => (target.handler.onPartialResponse?.(partialResponse(frame.data), context(target)), false),
            (target) => target.handler.onCompleteResponse(response as never),
          ),
        );
        expect(lines).to.deep.equal(['text 1', 'text 2', 'text 3', 'error StreamError malformed']);
        expect(message).to.equal(expected);
        expect(parts).to.deep.equal([{ type: 'text', text: '123', payload: null, attributes: {} }]);
      });
    }

    it('takes a response whose metadata leaves fields out (or is absent) with those fields null', async () => {
      const user = recorder();
      let final: unknown = null;
      const handler = { ...user, onCompleteResponse: (response: unknown) => void (final = response) };
      const adapter = adapterOf(
        () => false,
        (target) => target.handler.onCompleteResponse({ aiMessage: { parts: [] }, metadata: { finishReason: 'STOP' } } as never),
      );
      const outcome = await consumeStream(sse([['a', '1']]), handler, { format: 'sse', adapter });
      expect(outcome.status).to.equal('completed');
      expect((final as { metadata: unknown }).metadata).to.deep.equal(responseMetadata({ finishReason: 'STOP' }));
      expect((final as { aiMessage: { attributes: unknown } }).aiMessage.attributes).to.deep.equal({});
    });
  });

  describe('a callback value that breaks its type', () => {
    const values: ReadonlyArray<readonly [string, (target: MapperTarget) => void, string]> = [
      [
        'a partial response whose text is a number',
        (t) => t.handler.onPartialResponse?.({ text: 42 } as never, context(t)),
        "Expected the adapter's onPartialResponse text to be a string, got number 42",
      ],
      ['a partial response that is null', (t) => t.handler.onPartialResponse?.(null as never, context(t)), "Expected the adapter's onPartialResponse value to be an object {text, payload?}, got null"],
      [
        'a partial response without a context',
        (t) => t.handler.onPartialResponse?.(partialResponse('x'), undefined as never),
        "Expected the adapter's onPartialResponse context to be an object with the streamingHandle, got undefined",
      ],
      [
        'a partial thinking whose text is an object',
        (t) => t.handler.onPartialThinking?.({ text: {} } as never, context(t)),
        "Expected the adapter's onPartialThinking text to be a string, got an object",
      ],
      [
        'a partial thinking whose payload is a string',
        (t) => t.handler.onPartialThinking?.({ text: '', payload: 'sig' } as never, context(t)),
        'Expected the adapter\'s onPartialThinking payload to be {provider, kind, data} strings, got string "sig"',
      ],
      [
        'a tool-call delta with a negative index',
        (t) => t.handler.onPartialToolCall?.({ index: -1, id: null, name: 'f', partialArguments: '{' } as never, context(t)),
        "Expected the adapter's onPartialToolCall index to be an integer ≥ 0, got number -1",
      ],
      [
        'a tool-call delta with a fractional index',
        (t) => t.handler.onPartialToolCall?.({ index: 1.5, id: null, name: 'f', partialArguments: '{' } as never, context(t)),
        "Expected the adapter's onPartialToolCall index to be an integer ≥ 0, got number 1.5",
      ],
      [
        'a tool-call delta with a string index',
        (t) => t.handler.onPartialToolCall?.({ index: '0', id: null, name: 'f', partialArguments: '{' } as never, context(t)),
        'Expected the adapter\'s onPartialToolCall index to be an integer ≥ 0, got string "0"',
      ],
      [
        'a tool-call delta whose arguments are an object',
        (t) => t.handler.onPartialToolCall?.({ index: 0, id: null, name: 'f', partialArguments: {} } as never, context(t)),
        "Expected the adapter's onPartialToolCall partialArguments to be a string, got an object",
      ],
      [
        'a complete call with a negative index',
        (t) => t.handler.onCompleteToolCall?.({ index: -3, toolExecutionRequest: { id: 'c', name: 'f', arguments: '{}' } } as never),
        "Expected the adapter's onCompleteToolCall index to be an integer ≥ 0, got number -3",
      ],
      [
        'a complete call without a name',
        (t) => t.handler.onCompleteToolCall?.({ index: 0, toolExecutionRequest: { id: 'c', name: '', arguments: '{}' } } as never),
        'Expected the adapter\'s onCompleteToolCall toolExecutionRequest.name to be a non-blank string, got string ""',
      ],
      [
        'a complete call whose arguments are an object',
        (t) => t.handler.onCompleteToolCall?.({ index: 0, toolExecutionRequest: { id: 'c', name: 'f', arguments: { a: 1 } } } as never),
        "Expected the adapter's onCompleteToolCall toolExecutionRequest.arguments to be a string, got an object",
      ],
      [
        'an incomplete call with a negative index',
        (t) => t.keepIncompleteToolCall?.({ index: -1, id: null, name: null, arguments: '{' }),
        "Expected the adapter's keepIncompleteToolCall index to be an integer ≥ 0, got number -1",
      ],
    ];
    for (const [name, call, expected] of values) {
      it(`${name}: one malformed onError naming the field; the value reaches neither the handler nor the message`, async () => {
        const seen: string[] = [];
        const { lines, message, parts } = await refused(
          adapterOf((target, frame) => {
            seen.push(frame.event ?? '');
            target.handler.onPartialResponse?.(partialResponse(`<${frame.data}>`), context(target));
            if (frame.event === 'b') call(target);
            return false;
          }),
        );
        expect(lines).to.deep.equal(['text <1>', 'text <2>', 'error StreamError malformed']);
        expect(message).to.equal(expected);
        expect(seen).to.deep.equal(['a', 'b']);
        expect(parts).to.deep.equal([{ type: 'text', text: '<1><2>', payload: null, attributes: {} }]);
      });
    }
  });

  it('the rejection of an async map() or end() never becomes an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      await refused(adapterOf(() => Promise.reject(new Error('map rejected'))));
      await refused(
        adapterOf(
          () => false,
          async () => {
            await Promise.resolve();
            throw new Error('end rejected');
          },
        ),
      );
      // Unhandled rejections are reported after the microtasks have run.
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(unhandled).to.deep.equal([]);
  });

  it('an async end() that has not delivered the terminal callback when it returns: malformed, naming it, not truncated', async () => {
    const { lines, message } = await refused(
      adapterOf(
        () => false,
        async (target) => {
          await Promise.resolve();
          target.handler.onCompleteResponse(chatResponse(aiMessage([])));
        },
      ),
    );
    expect(lines).to.deep.equal(['raw {"event":"a","data":"1"}', 'raw {"event":"b","data":"2"}', 'raw {"event":"c","data":"3"}', 'error StreamError malformed']);
    expect(message).to.equal("The custom adapter failed at the end of the stream: Expected the mapper's end() to deliver the terminal callback before it returns, got a Promise");
  });
});
