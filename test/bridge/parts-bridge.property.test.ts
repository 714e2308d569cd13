import { expect } from 'chai';
import fc from 'fast-check';
import { MessageAggregator } from '../../lib/core/message-aggregator';
import { PartsBridge } from '../../lib/bridge/parts-bridge';
import type { ChatResponse, CompleteToolCall, StreamingChatResponseHandler, StreamingHandle } from '../../lib/handler/types';
import { completeToolCall, partialResponse, partialThinking, partialToolCall } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart } from '../../lib/parts/factories';
import { StreamingPartIndexer } from '../../lib/parts/streaming-part-indexer';
import type { MessagePart, OpaquePayload, ToolCallPart } from '../../lib/parts/types';
import { RecordingHandler } from '../handler/recording-handler';
import { buildChain, providerResponse } from './build-chain';

type Step = { kind: 'thinking'; text: string } | { kind: 'text'; text: string } | { kind: 'tool'; call: number; args: string };

const fragment = fc.string({ minLength: 1, maxLength: 4 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('thinking' as const), text: fragment }),
  fc.record({ kind: fc.constant('text' as const), text: fragment }),
  fc.record({ kind: fc.constant('tool' as const), call: fc.integer({ min: 0, max: 2 }), args: fragment }),
);

/** Maximal runs of one content type, tool-call deltas not counting (they do not end a run). */
function runs(steps: readonly Step[]): Array<'text' | 'reasoning'> {
  const result: Array<'text' | 'reasoning'> = [];
  for (const s of steps) {
    if (s.kind === 'tool') continue;
    const type = s.kind === 'text' ? 'text' : 'reasoning';
    if (result.at(-1) !== type) result.push(type);
  }
  return result;
}

describe('PartsBridge (property)', () => {
  it('rebuilds the text, the reasoning, each tool call and the runs from any interleaving of deltas', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.boolean(), (steps, idless) => {
        const user = new RecordingHandler();
        const chain = buildChain(user);
        const args = new Map<number, string>();
        for (const s of steps) {
          if (s.kind === 'thinking') chain.thinking(s.text);
          else if (s.kind === 'text') chain.text(s.text);
          else {
            chain.toolDelta(s.call, idless ? null : `call_${s.call}`, `tool_${s.call}`, s.args);
            args.set(s.call, (args.get(s.call) ?? '') + s.args);
          }
        }
        for (const [call, joined] of args) chain.toolComplete(call, idless ? null : `call_${call}`, `tool_${call}`, joined);
        chain.complete({ id: 'r' });

        const final = user.calls.find(([name]) => name === 'onCompleteResponse')?.[1] as ChatResponse;
        const texts = steps.flatMap((s) => (s.kind === 'text' ? [s.text] : []));
        const thoughts = steps.flatMap((s) => (s.kind === 'thinking' ? [s.text] : []));
        expect(final.aiMessage.text).to.equal(texts.length === 0 ? null : texts.join(''));
        expect(final.aiMessage.thinking).to.equal(thoughts.length === 0 ? null : thoughts.join(''));
        expect(final.aiMessage.toolExecutionRequests).to.deep.equal(
          // Blank arguments read as "{}" (CompleteToolCall's rule).
          [...args].map(([call, joined]) => ({ id: idless ? null : `call_${call}`, name: `tool_${call}`, arguments: joined.trim() === '' ? '{}' : joined })),
        );
        const contentTypes = final.aiMessage.parts.map((part) => part.type).filter((type) => type !== 'tool_call');
        expect(contentTypes).to.deep.equal(runs(steps));
        expect(final.aiMessage.parts.every((part) => Object.keys(part.attributes).length === 0)).to.equal(true);
      }),
      { seed: 7301, numRuns: 150 },
    );
  });
});

// ── The bridge's fast paths against the public stamp-and-aggregate path ─────────────────────

/** How a call's id is sent: on every event, on the first delta (and the completion) only, or never (Gemini, Ollama). */
type IdMode = 'always' | 'first' | 'never';

/** One handler callback the bridge receives. */
type Event =
  | { readonly on: 'text' | 'thinking'; readonly text: string; readonly payload: OpaquePayload | null }
  | { readonly on: 'toolDelta'; readonly call: number; readonly args: string }
  | { readonly on: 'toolComplete'; readonly call: number; readonly payload: OpaquePayload | null }
  /** The adapter's `completeBlock()` without a part: the provider block ended. */
  | { readonly on: 'blockEnd' }
  /** Not a callback: the message so far is read (`partialResponse()`) in the middle of the stream. */
  | { readonly on: 'peek' };

const CALLS = 4;

const payloadArb: fc.Arbitrary<OpaquePayload> = fc.record({
  provider: fc.constantFrom('anthropic', 'google', 'openai'),
  kind: fc.constantFrom('signature', 'thought_signature', 'redacted_thinking', 'encrypted_content'),
  data: fc.string({ minLength: 1, maxLength: 6 }),
});

const textArb = fc.string({ minLength: 1, maxLength: 4 });

/** A text or reasoning delta: plain (the per-token fast path), with a payload, or signature-only (text '' with a payload). */
const contentArb = (on: 'text' | 'thinking'): fc.Arbitrary<Event> =>
  fc.oneof(
    { weight: 4, arbitrary: textArb.map((text) => ({ on, text, payload: null })) },
    { weight: 1, arbitrary: fc.tuple(textArb, payloadArb).map(([text, payload]) => ({ on, text, payload })) },
    { weight: 1, arbitrary: payloadArb.map((payload) => ({ on, text: '', payload })) },
  );

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  { weight: 3, arbitrary: contentArb('text') },
  { weight: 3, arbitrary: contentArb('thinking') },
  { weight: 2, arbitrary: fc.record({ on: fc.constant('toolDelta' as const), call: fc.nat({ max: CALLS - 1 }), args: textArb }) },
  { weight: 1, arbitrary: fc.record({ on: fc.constant('toolComplete' as const), call: fc.nat({ max: CALLS - 1 }), payload: fc.option(payloadArb, { nil: null }) }) },
  { weight: 1, arbitrary: fc.constant({ on: 'blockEnd' as const }) },
  { weight: 1, arbitrary: fc.constant({ on: 'peek' as const }) },
);

/**
 * The events as a provider sends them: each call completes at most once and gets no delta after
 * its completion, and a run of text or reasoning deltas carries at most one payload (how two
 * payloads in one run are split into parts is the adapters' business, SPEC §5, not the fast path's).
 */
function asSent(events: readonly Event[]): Event[] {
  const completed = new Set<number>();
  const result: Event[] = [];
  let run: { on: 'text' | 'thinking'; payload: boolean } | null = null;
  for (const event of events) {
    if (event.on === 'toolDelta' && completed.has(event.call)) continue;
    if (event.on === 'toolComplete') {
      if (completed.has(event.call)) continue;
      completed.add(event.call);
      run = null;
    } else if (event.on === 'blockEnd') {
      run = null;
    } else if (event.on === 'text' || event.on === 'thinking') {
      if (run === null || run.on !== event.on) run = { on: event.on, payload: false };
      if (event.payload !== null) {
        if (run.payload) {
          if (event.text === '') continue;
          result.push({ ...event, payload: null });
          continue;
        }
        run.payload = true;
      }
    }
    result.push(event);
  }
  return result;
}

interface Call {
  readonly id: (first: boolean) => string | null;
  readonly name: string;
}

function callOf(index: number, mode: IdMode): Call {
  const id = `call_${index}`;
  return { id: (first) => (mode === 'always' || (mode === 'first' && first) ? id : null), name: `tool_${index}` };
}

const HANDLE: StreamingHandle = Object.freeze({ cancel: () => undefined, isCancelled: () => false });
const CONTEXT = Object.freeze({ streamingHandle: HANDLE });

/** What the user's handler saw last as the final response. */
function finalHandler(): { handler: StreamingChatResponseHandler; final: () => ChatResponse | null } {
  let final: ChatResponse | null = null;
  return {
    handler: {
      onCompleteResponse: (response) => {
        final = response;
      },
      onError: (error) => {
        throw error;
      },
    },
    final: () => final,
  };
}

/**
 * The message the public path builds from the same events (SPEC §5–§7): each event becomes a part
 * stamped by one `StreamingPartIndexer` and added to one `MessageAggregator` under one response
 * id. A tool call is keyed by its first id, or by a key derived from its index when it has none;
 * the part itself keeps the id the provider sent. A signature-only reasoning delta carries no text.
 * Argument deltas are marked `incomplete: "true"` until their call completes.
 */
function referenceParts(events: readonly Event[], calls: readonly Call[], peeks: MessagePart[][] = []): MessagePart[] {
  const indexer = new StreamingPartIndexer();
  const aggregator = new MessageAggregator();
  const keys = new Map<number, string>();
  const keyOf = (call: number, id: string | null): string => {
    const known = keys.get(call);
    if (known !== undefined) return known;
    const key = id ?? `key#${call}`;
    keys.set(call, key);
    return key;
  };
  const add = (part: MessagePart): void => aggregator.add({ id: 'response', parts: [part] });
  const withId = (part: ToolCallPart, id: string | null): ToolCallPart => ({ ...part, toolCall: { ...part.toolCall, id } });
  const seen = new Set<number>();
  const args = new Map<number, string>();
  for (const event of events) {
    switch (event.on) {
      case 'text':
        add(indexer.stamp(textPart(event.text, { payload: event.payload })));
        break;
      case 'thinking':
        add(indexer.stamp(reasoningPart(event.text === '' ? null : event.text, { payload: event.payload })));
        break;
      case 'toolDelta': {
        const call = calls[event.call] as Call;
        const id = call.id(!seen.has(event.call));
        seen.add(event.call);
        args.set(event.call, (args.get(event.call) ?? '') + event.args);
        // SPEC §10: a call whose deltas were never followed by its complete call is marked
        // `incomplete: "true"`; the complete call, when it comes, replaces the slot and the mark.
        const delta = toolCallPart({ id: keyOf(event.call, id), type: 'function', name: call.name, arguments: event.args }, { attributes: { incomplete: 'true' } });
        add(withId(indexer.stampToolCallDelta(delta), id));
        break;
      }
      case 'toolComplete': {
        const call = calls[event.call] as Call;
        const id = call.id(true);
        const joined = args.get(event.call) ?? '';
        const part = toolCallPart({ id: keyOf(event.call, id), type: 'function', name: call.name, arguments: joined.trim() === '' ? '{}' : joined }, { payload: event.payload });
        add(withId(indexer.stamp(part) as ToolCallPart, id));
        break;
      }
      case 'blockEnd':
        indexer.endRun();
        break;
      case 'peek':
        peeks.push(aggregator.result().parts);
        break;
      default: {
        const never: never = event;
        throw new TypeError(`Expected an event, got ${JSON.stringify(never)}`);
      }
    }
  }
  return aggregator.result().parts;
}

/** Feeds the events to a `PartsBridge` through its handler callbacks, as the stream driver does. */
function drive(bridge: PartsBridge, events: readonly Event[], calls: readonly Call[], peeks: (readonly MessagePart[])[] = []): void {
  const seen = new Set<number>();
  const args = new Map<number, string>();
  for (const event of events) {
    switch (event.on) {
      case 'text':
        bridge.onPartialResponse(partialResponse(event.text, event.payload ?? undefined), CONTEXT);
        break;
      case 'thinking':
        bridge.onPartialThinking(partialThinking(event.text, event.payload ?? undefined), CONTEXT);
        break;
      case 'toolDelta': {
        const call = calls[event.call] as Call;
        bridge.onPartialToolCall(partialToolCall(event.call, call.id(!seen.has(event.call)), call.name, event.args), CONTEXT);
        seen.add(event.call);
        args.set(event.call, (args.get(event.call) ?? '') + event.args);
        break;
      }
      case 'toolComplete': {
        const call = calls[event.call] as Call;
        const complete: CompleteToolCall = completeToolCall(event.call, { id: call.id(true), name: call.name, arguments: args.get(event.call) ?? '' }, event.payload ?? undefined);
        bridge.onCompleteToolCall(complete);
        break;
      }
      case 'blockEnd':
        bridge.completeBlock();
        break;
      case 'peek':
        peeks.push(bridge.partialResponse().aiMessage.parts);
        break;
      default: {
        const never: never = event;
        throw new TypeError(`Expected an event, got ${JSON.stringify(never)}`);
      }
    }
  }
}

const caseArb = fc.record({
  events: fc.array(eventArb, { maxLength: 40 }).map(asSent),
  modes: fc.array(fc.constantFrom<IdMode>('always', 'first', 'never'), { minLength: CALLS, maxLength: CALLS }),
  completes: fc.boolean(),
});

describe('PartsBridge fast paths against StreamingPartIndexer#stamp + MessageAggregator#add (property)', () => {
  it('builds the same message from text / reasoning deltas (plain, with payloads, signature-only), tool-call deltas (with and without ids), complete calls and block ends, read at any point', () => {
    fc.assert(
      fc.property(caseArb, ({ events, modes, completes }) => {
        const calls = modes.map((mode, index) => callOf(index, mode));
        const user = finalHandler();
        const bridge = new PartsBridge(user.handler);
        const peeks: (readonly MessagePart[])[] = [];
        drive(bridge, events, calls, peeks);
        const expectedPeeks: MessagePart[][] = [];
        const expected = referenceParts(events, calls, expectedPeeks);
        // Read in the middle of the stream too: what is read then is no stale copy later.
        expect(peeks, 'partialResponse() in the middle of the stream').to.deep.equal(expectedPeeks);
        expect(bridge.partialResponse().aiMessage.parts, 'partialResponse()').to.deep.equal(expected);
        if (completes) {
          bridge.onCompleteResponse(providerResponse({ id: 'response' }));
          expect(user.final()?.aiMessage.parts, 'the final response').to.deep.equal(expected);
        }
        // Independently of both paths: every text and reasoning character delivered is in the message, in order.
        const message = (completes ? user.final() : bridge.partialResponse()) as ChatResponse;
        const delivered = (on: 'text' | 'thinking'): string => events.flatMap((event) => (event.on === on ? [event.text] : [])).join('');
        expect(message.aiMessage.text ?? '').to.equal(delivered('text'));
        expect(message.aiMessage.thinking ?? '').to.equal(delivered('thinking'));
      }),
      { seed: 7302, numRuns: 400 },
    );
  });
});
