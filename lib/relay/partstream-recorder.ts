import type { RecordedToolCall } from '../core/core-recorder';
import type { RecordedStream, StreamOutcome, StreamRecorder } from '../driver/consume-stream';
import { StreamError } from '../handler/stream-error';
import type { ChatResponse } from '../handler/types';
import { partsToJSON, partToJSON } from '../parts/json';
import type { DeltaType } from '../parts/part-index-counter';
import type { MessagePart, OpaquePayload, PartAttributes } from '../parts/types';
import { jsonString } from './json-string';
import type { RelayEventSink } from './partstream-encoder';
import type { StopRequest } from './response-store';

/** Who ended a cancelled response: the stop asked for (by, reason, at), or the producer's own cancel. */
export type CancelledBy = StopRequest | null;

/** JSON text of a string (`JSON.stringify` of a string never throws). */
const quote = jsonString;

/** JSON text of a value a stream handed over (a raw event); null when it is not JSON-serialisable. */
function jsonOrNull(value: unknown): string | null {
  try {
    const text = JSON.stringify(value);
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}

/**
 * Turns what one stream's core took into `partstream` v1 events (SPEC §13), encoded once: `delta`,
 * `tool-delta`, `tool-call`, `block`, `raw` (with `relayRawEvents`), `meta` when the id or model
 * seen so far changed (`checkMeta`, at each flush and before the terminal), and exactly one
 * terminal: `complete` as the core completed, else, at the stream's end, `error` (its kind,
 * message, status and code; never its body or cause) or `cancelled` (by the stop asked for, else
 * by the producer). A payload-free delta and a tool-call delta go to the sink as their raw values
 * (`RelayEventSink#delta`, `#toolDelta`: the producer's writer encodes them with their batch);
 * any other event as its JSON data.
 */
export class PartstreamRecorder implements StreamRecorder {
  private stream: RecordedStream | null = null;
  private metaId: string | null = null;
  private metaModel: string | null = null;
  /** When `checkMeta` asks next (Date.now()); starts as a time, for the reason `BatchWriter#firstAt` does. */
  private nextMetaCheck = Date.now();
  /** The stop that cancelled the stream, once one did. */
  stop: CancelledBy = null;
  /** Set when the relay was fenced out: the stream's outcome becomes `producer_fenced`, and nothing more is written. */
  fenced: StreamError | null = null;

  constructor(
    private readonly out: RelayEventSink,
    private readonly responseId: string,
    private readonly producerId: string,
    private readonly relayRawEvents: boolean,
  ) {}

  /** The stream this recorder records (the driver's side). */
  attach(stream: RecordedStream): void {
    this.stream = stream;
  }

  delta(index: number, type: DeltaType, text: string, payload: OpaquePayload | null): void {
    if (payload === null) this.out.delta(index, type, text);
    else this.out.emit('delta', `{"index":${index},"type":"${type}","text":${quote(text)},"payload":${JSON.stringify(payload)}}`);
  }

  toolCallDelta(index: number, call: number, id: string | null, name: string | null, args: string): void {
    this.out.toolDelta(index, call, id, name, args);
  }

  toolCall(index: number, call: number, fields: RecordedToolCall, incomplete: boolean): void {
    const data: Record<string, unknown> = { index, call, id: fields.id, name: fields.name, arguments: fields.arguments };
    if (fields.payload !== null) data.payload = fields.payload;
    if (incomplete) data.incomplete = true;
    this.out.emit('tool-call', JSON.stringify(data));
  }

  block(index: number, part: MessagePart | null, attributes: PartAttributes | null): void {
    const data: Record<string, unknown> = {};
    if (index >= 0) data.index = index;
    if (part !== null) data.part = partToJSON(part);
    if (attributes !== null) data.attributes = attributes;
    this.out.emit('block', JSON.stringify(data));
  }

  raw(rawEvent: unknown): void {
    if (!this.relayRawEvents) return;
    const text = jsonOrNull(rawEvent);
    if (text !== null) this.out.emit('raw', `{"raw":${text}}`);
  }

  complete(response: ChatResponse, providerParts: boolean): void {
    if (this.fenced !== null) return;
    this.checkMeta(true);
    const data: Record<string, unknown> = { responseId: this.responseId, metadata: response.metadata, attributes: response.aiMessage.attributes };
    if (providerParts) data.parts = partsToJSON(response.aiMessage.parts);
    this.out.emit('complete', JSON.stringify(data), true);
  }

  /**
   * Emits `meta` when the id or model the mapper saw so far changed since the last one. Asking
   * the mapper builds a metadata object, so a flush asks at most every 100 ms, and no more once
   * both are known (a mapper keeps the first it saw); `force` (before the terminal) always asks.
   */
  checkMeta(force = false): void {
    if (this.out.terminated) return;
    if (!force) {
      if (this.metaId !== null && this.metaModel !== null) return;
      const time = Date.now();
      if (time < this.nextMetaCheck) return;
      this.nextMetaCheck = time + 100;
    }
    let known;
    try {
      known = this.stream?.metadataSoFar();
    } catch {
      return;
    }
    const id = typeof known?.id === 'string' ? known.id : null;
    const model = typeof known?.modelName === 'string' ? known.modelName : null;
    if (id === this.metaId && model === this.metaModel) return;
    this.metaId = id;
    this.metaModel = model;
    const data: Record<string, string> = {};
    if (id !== null) data.id = id;
    if (model !== null) data.modelName = model;
    this.out.emit('meta', JSON.stringify(data));
  }

  end(outcome: StreamOutcome): StreamOutcome {
    const fenced = this.fenced;
    if (fenced !== null) {
      const partial = outcome.status === 'completed' ? outcome.response : outcome.partial;
      return Object.freeze({ status: 'failed', error: fenced, partial });
    }
    if (outcome.status === 'failed') this.error(outcome.error, 'producer');
    else if (outcome.status === 'cancelled') this.cancelled(this.stop);
    return outcome;
  }

  /** Appends the terminal `error` (unless the log already ended). */
  error(error: Error, by: 'producer' | 'reaper'): void {
    this.checkMeta(true);
    const kind = StreamError.isInstance(error) ? error.kind : 'network';
    const details: Record<string, unknown> = { kind, message: error.message };
    if (StreamError.isInstance(error)) {
      if (error.status !== undefined) details.status = error.status;
      if (error.code !== undefined) details.code = error.code;
    }
    this.out.emit('error', JSON.stringify({ responseId: this.responseId, error: details, producerId: this.producerId, by }), true);
  }

  /** Appends the terminal `cancelled` (unless the log already ended). */
  cancelled(stop: CancelledBy): void {
    this.checkMeta(true);
    const data: Record<string, unknown> =
      stop === null
        ? { responseId: this.responseId, by: 'producer', reason: null, at: new Date().toISOString() }
        : { responseId: this.responseId, by: stop.by, reason: stop.reason, at: stop.at, stopId: stop.stopId };
    this.out.emit('cancelled', JSON.stringify(data), true);
  }
}
