import { StreamError, type StreamErrorKind } from '../../handler/stream-error';
import type { ChatResponseMetadata, PartialResponseContext, StreamingChatResponseHandler } from '../../handler/types';
import { aiMessage, chatResponse, completeToolCall, responseMetadata, tokenUsage } from '../../handler/values';
import { partFromJSON, partsFromJSON } from '../../parts/json';
import { PartIndexCounter } from '../../parts/part-index-counter';
import type { MessagePart, PartAttributes } from '../../parts/types';
import { isPlainObject, validateAttributes } from '../../parts/validate';
import type { MapperTarget, StreamMapper } from '../stream-mapper';
import type { SequencedSseFrame, SseFrame } from '../../wire/types';
import { anyField, countField, dataObject, FieldError, flagField, nullableStringField, optionalCountField, payloadField, stringField } from './partstream-fields';
import { partstreamViolation } from './partstream-violation';
import { parseSequence, PARTSTREAM_WIRE_VERSION } from './partstream-wire';
import type { ReplayGate } from './replay-gate';

/** The events that change the viewer's state without a callback: never surfaced raw. */
const BOOKKEEPING: ReadonlySet<string> = new Set(['start', 'meta', 'block', 'tool-call']);

const STREAM_ERROR_KINDS: ReadonlySet<string> = new Set<StreamErrorKind>(['http', 'provider', 'truncated', 'malformed', 'format', 'timeout', 'network']);

/**
 * The viewer of a `partstream` relay body (SPEC §13): each event is fed, through the chain's
 * typed callbacks and `completeBlock` / `keepIncompleteToolCall`, to the same `ResponseCore` the
 * producer used, so the final message and the callbacks are the producer's. It checks what it
 * applies: sequences contiguous from 1, a first `start` of version 1, every stamped `index` the
 * one its own counter gives (the core's rules, `PartIndexCounter`), every field of its kind. A
 * breach fails the stream (`malformed`, or `format` for another version) before anything of that
 * event is applied. Unknown event types surface raw and change nothing; reading stops at the
 * first terminal event (`complete`, `error`, `cancelled`).
 */
export class PartstreamMapper implements StreamMapper<SseFrame> {
  readonly framing = 'sse' as const;
  private readonly counter = new PartIndexCounter();
  /** The sequence the next event must carry. */
  private next = 1;
  private responseId: string | null = null;
  private id: string | null = null;
  private modelName: string | null = null;
  private context: PartialResponseContext | null = null;

  /** `gate`: the handler wrapper that keeps the callbacks of the events up to its `fromSequence` from the user. */
  constructor(private readonly gate: ReplayGate | null = null) {}

  /** The last sequence applied (0 before any). */
  get lastSequence(): number {
    return this.next - 1;
  }

  map(frame: SseFrame, target: MapperTarget): boolean {
    const type = frame.event ?? 'message';
    try {
      const sequence = parseSequence((frame as SequencedSseFrame).id);
      if (sequence === null) throw new FieldError(`a ${type} event has no valid id (a sequence number), got ${JSON.stringify((frame as SequencedSseFrame).id ?? null)}`);
      if (sequence !== this.next) throw new FieldError(`sequence gap: expected ${this.next}, got ${sequence}`);
      if (sequence === 1 && type !== 'start') throw new FieldError(`the first event must be start, got ${type}`);
      const gate = this.gate;
      if (gate !== null) gate.muted = sequence <= gate.fromSequence;
      const stop = this.apply(type, frame.data, target);
      if (BOOKKEEPING.has(type)) target.consumed?.();
      this.next = sequence + 1;
      return stop;
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      target.handler.onError(partstreamViolation(error.kind, error.message, frame.data));
      return true;
    }
  }

  end(target: MapperTarget): void {
    target.handler.onError(new StreamError('truncated', `The relay stream ended after sequence ${this.lastSequence} without its terminal event`));
  }

  metadataSoFar(): ChatResponseMetadata {
    return responseMetadata({ id: this.id, modelName: this.modelName });
  }

  /** Applies one event whose sequence was checked; true for a terminal event. */
  private apply(type: string, text: string, target: MapperTarget): boolean {
    const handler = target.handler;
    switch (type) {
      case 'start': {
        const data = dataObject(text, type);
        if (this.responseId !== null) throw new FieldError('a second start event');
        const version = anyField(data, 'v');
        if (version !== PARTSTREAM_WIRE_VERSION)
          throw new FieldError(`version ${JSON.stringify(version ?? null)} is not supported (this viewer reads partstream v${PARTSTREAM_WIRE_VERSION})`, 'format');
        this.responseId = stringField(data, 'responseId', type);
        return false;
      }
      case 'meta': {
        const data = dataObject(text, type);
        this.id = nullableStringField(data, 'id', type) ?? this.id;
        this.modelName = nullableStringField(data, 'modelName', type) ?? this.modelName;
        return false;
      }
      case 'delta':
        this.delta(dataObject(text, type), handler, target);
        return false;
      case 'tool-delta': {
        const data = dataObject(text, type);
        const call = countField(data, 'call', type);
        const id = nullableStringField(data, 'id', type);
        const name = stringField(data, 'name', type);
        const args = stringField(data, 'arguments', type);
        if (args.length === 0) throw new FieldError('a tool-delta event with empty arguments');
        this.checkIndex(data, type, this.counter.toolCallDelta(call));
        handler.onPartialToolCall?.(Object.freeze({ index: call, id, name, partialArguments: args }), this.contextOf(target));
        return false;
      }
      case 'tool-call':
        this.toolCall(dataObject(text, type), handler, target);
        return false;
      case 'block':
        this.block(dataObject(text, type), target);
        return false;
      case 'raw': {
        const raw = anyField(dataObject(text, type), 'raw');
        if (raw === undefined || raw === null) throw new FieldError('a raw event without its raw value');
        target.surfaceRawInstead?.(raw);
        return false;
      }
      case 'complete':
        this.complete(dataObject(text, type), handler);
        return true;
      case 'error':
        handler.onError(this.error(dataObject(text, type)));
        return true;
      case 'cancelled':
        handler.onCompleteResponse(this.cancelled(dataObject(text, type)));
        return true;
      default:
        // An event type this version does not know: surfaced raw (no typed callback), nothing changes.
        return false;
    }
  }

  private contextOf(target: MapperTarget): PartialResponseContext {
    let context = this.context;
    if (context === null) {
      context = Object.freeze({ streamingHandle: target.handle });
      this.context = context;
    }
    return context;
  }

  private checkIndex(data: Record<string, unknown>, type: string, expected: number): void {
    const index = countField(data, 'index', type);
    if (index !== expected) throw new FieldError(`a ${type} event stamped index ${index} where the viewer counts ${expected}`);
  }

  private delta(data: Record<string, unknown>, handler: StreamingChatResponseHandler, target: MapperTarget): void {
    const deltaType = stringField(data, 'type', 'delta');
    if (deltaType !== 'text' && deltaType !== 'reasoning') throw new FieldError(`expected delta.type to be text or reasoning, got ${JSON.stringify(deltaType)}`);
    const text = stringField(data, 'text', 'delta');
    const payload = payloadField(data, 'delta');
    if (text.length > 0 || payload !== null) this.checkIndex(data, 'delta', this.counter.delta(deltaType, payload !== null));
    const partial = payload === null ? Object.freeze({ text }) : Object.freeze({ text, payload });
    if (deltaType === 'text') handler.onPartialResponse?.(partial, this.contextOf(target));
    else handler.onPartialThinking?.(partial, this.contextOf(target));
  }

  private toolCall(data: Record<string, unknown>, handler: StreamingChatResponseHandler, target: MapperTarget): void {
    const call = countField(data, 'call', 'tool-call');
    const id = nullableStringField(data, 'id', 'tool-call');
    const args = stringField(data, 'arguments', 'tool-call');
    const payload = payloadField(data, 'tool-call');
    if (flagField(data, 'incomplete', 'tool-call')) {
      const name = nullableStringField(data, 'name', 'tool-call');
      this.checkIndex(data, 'tool-call', this.counter.endToolCall(call));
      target.keepIncompleteToolCall?.(payload === null ? { index: call, id, name, arguments: args } : { index: call, id, name, arguments: args, payload });
      return;
    }
    const name = stringField(data, 'name', 'tool-call');
    let complete;
    try {
      complete = completeToolCall(call, { id, name, arguments: args }, payload ?? undefined);
    } catch (error) {
      throw new FieldError((error as Error).message);
    }
    this.checkIndex(data, 'tool-call', this.counter.endToolCall(call));
    handler.onCompleteToolCall?.(complete);
  }

  private block(data: Record<string, unknown>, target: MapperTarget): void {
    const json = anyField(data, 'part');
    let part: MessagePart | null = null;
    let attributes: PartAttributes | null = null;
    try {
      if (json !== undefined && json !== null) part = partFromJSON(json);
      const extra = anyField(data, 'attributes');
      if (extra !== undefined && extra !== null) attributes = validateAttributes(extra, 'block.attributes');
    } catch (error) {
      throw new FieldError((error as Error).message);
    }
    if (part !== null && !(part.type === 'text' && part.text === '' && part.payload === null)) {
      const type = part.type;
      this.checkIndex(data, 'block', type === 'text' || type === 'reasoning' ? this.counter.delta(type, part.payload !== null) : this.counter.whole());
    } else if (optionalCountField(data, 'index', 'block') !== null) {
      throw new FieldError('a block event stamped an index without a part that takes one');
    }
    this.counter.endRun();
    target.completeBlock?.(part, attributes);
  }

  private checkResponseId(data: Record<string, unknown>, type: string): void {
    const responseId = stringField(data, 'responseId', type);
    if (responseId !== this.responseId) throw new FieldError(`a ${type} event of response ${JSON.stringify(responseId.slice(0, 128))} in the relay of ${JSON.stringify(this.responseId)}`);
  }

  private complete(data: Record<string, unknown>, handler: StreamingChatResponseHandler): void {
    this.checkResponseId(data, 'complete');
    const partsJson = anyField(data, 'parts');
    let parts: readonly MessagePart[] = [];
    let metadata: ChatResponseMetadata;
    let attributes: PartAttributes;
    try {
      if (partsJson !== undefined && partsJson !== null) parts = partsFromJSON(partsJson);
      metadata = readMetadata(anyField(data, 'metadata'));
      attributes = validateAttributes(anyField(data, 'attributes'), 'complete.attributes');
    } catch (error) {
      throw new FieldError((error as Error).message);
    }
    handler.onCompleteResponse(chatResponse(aiMessage(parts, attributes), metadata));
  }

  private error(data: Record<string, unknown>): StreamError {
    this.checkResponseId(data, 'error');
    const error = anyField(data, 'error');
    if (!isPlainObject(error)) throw new FieldError('an error event without its error object');
    const kind = stringField(error, 'kind', 'error.error');
    if (!STREAM_ERROR_KINDS.has(kind)) throw new FieldError(`expected error.error.kind to be a stream error kind, got ${JSON.stringify(kind.slice(0, 40))}`);
    const message = stringField(error, 'message', 'error.error');
    const code = nullableStringField(error, 'code', 'error.error') ?? undefined;
    const status = optionalCountField(error, 'status', 'error.error') ?? undefined;
    return new StreamError(kind as StreamErrorKind, message, { code, status });
  }

  /** How a stop reaches the viewer: the parts so far, finish reason OTHER, and who stopped it when (SPEC §13). */
  private cancelled(data: Record<string, unknown>): ReturnType<typeof chatResponse> {
    this.checkResponseId(data, 'cancelled');
    const by = stringField(data, 'by', 'cancelled');
    const reason = nullableStringField(data, 'reason', 'cancelled');
    const at = nullableStringField(data, 'at', 'cancelled');
    const metadata = responseMetadata({
      id: this.id,
      modelName: this.modelName,
      finishReason: 'OTHER',
      providerFinishReason: 'cancelled',
      providerMetadata: { partstream: { stop: { by, reason, at } } },
    });
    return chatResponse(aiMessage([]), metadata);
  }
}

/** The metadata of a `complete` event, validated as `responseMetadata` and `tokenUsage` validate. */
function readMetadata(value: unknown): ChatResponseMetadata {
  if (!isPlainObject(value)) throw new TypeError('Expected complete.metadata to be an object');
  const own = (key: string): unknown => (Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined);
  const usage = own('tokenUsage');
  let usageValue = null;
  if (usage !== null && usage !== undefined) {
    if (!isPlainObject(usage)) throw new TypeError('Expected complete.metadata.tokenUsage to be an object or null');
    const count = (key: string): number | null => {
      const field = Object.prototype.hasOwnProperty.call(usage, key) ? usage[key] : null;
      return field === undefined ? null : (field as number | null);
    };
    usageValue = tokenUsage(count('inputTokenCount'), count('outputTokenCount'), count('totalTokenCount'), {
      cacheReadInputTokenCount: count('cacheReadInputTokenCount'),
      cacheWriteInputTokenCount: count('cacheWriteInputTokenCount'),
      reasoningTokenCount: count('reasoningTokenCount'),
    });
  }
  return responseMetadata({
    id: own('id') as string | null,
    modelName: own('modelName') as string | null,
    tokenUsage: usageValue,
    finishReason: own('finishReason') as ChatResponseMetadata['finishReason'],
    providerFinishReason: own('providerFinishReason') as string | null,
    providerUsage: own('providerUsage') as Record<string, unknown> | null,
    providerMetadata: own('providerMetadata') as Record<string, unknown> | null,
  });
}
