import { bytesToBase64 } from '../../parts/base64';
import { describeValue } from '../../parts/describe-value';
import { isJsonObject, type JsonObject } from '../../wire/read-json';
import type { EventStreamFrame } from '../../wire/aws-eventstream/eventstream-decoder';

// The AWS SDK (`@aws-sdk/client-bedrock-runtime`) reads a ConverseStream itself and hands out
// each message as an object with one member named after its event type
// (`{ contentBlockDelta: { contentBlockIndex, delta } }`), the padding `p` dropped and blobs
// (`reasoningContent.redactedContent`, image bytes) decoded to `Uint8Array`, a delta or block
// member newer than the SDK as `{ $unknown: [name, value] }`, and the keys of a member in the
// order of the SDK's model rather than the wire's. A modelled
// exception (`throttlingException` …) is not handed out: the SDK throws it from the iterator as
// an instance of its exception class (`ThrottlingException`, `$fault` set), and an `error`
// message as a plain `Error` named after its code. These functions turn both back into the
// frames the wire would have given, so that one mapper reads either.

/** The SDK's exception classes and the `:exception-type` Bedrock sends for each. */
const EXCEPTION_TYPES: ReadonlyMap<string, string> = new Map([
  ['InternalServerException', 'internalServerException'],
  ['ModelStreamErrorException', 'modelStreamErrorException'],
  ['ValidationException', 'validationException'],
  ['ThrottlingException', 'throttlingException'],
  ['ServiceUnavailableException', 'serviceUnavailableException'],
]);

/** Deeper than this, values are kept as they are: no blob sits that deep in a Converse event. */
const MAX_DEPTH = 32;

function frame(messageType: string, eventType: string | null, exceptionType: string | null, value: unknown): EventStreamFrame {
  return { messageType, eventType, exceptionType, errorMessage: null, payload: { ok: true, value } };
}

/**
 * The frame one event of the SDK's `ConverseStreamCommand` output `stream` stands for: its one
 * member names the event (`eventType`) and is the payload, with every `Uint8Array` in it written
 * back as the base64 text the wire carries and every nested `$unknown: [name, value]` as the
 * member `name` the wire sent (the rest is taken as it is, not copied). A member
 * that is one of the stream's exceptions (`throttlingException`, `modelStreamErrorException`,
 * `validationException`, `serviceUnavailableException`, `internalServerException`, or any member
 * ending in `Exception`) is an `exception` frame with that type; the SDK's `$unknown: [name,
 * value]` an event of that name. An object with no member or more than one is an event without a
 * type (it surfaces raw); a frame (what `bedrockFramesFromSdkStream` yields) is taken as it is.
 * Throws a `TypeError` for a value that is not an object.
 */
export function bedrockFrameFromSdkEvent(event: unknown): EventStreamFrame {
  if (!isJsonObject(event)) throw new TypeError(`Expected a ConverseStream event object ({ contentBlockDelta: … }), got ${describeValue(event)}`);
  if (isFrame(event)) return event;
  let member: string | null = null;
  for (const key in event) {
    if (!Object.prototype.hasOwnProperty.call(event, key) || event[key] === undefined) continue;
    if (member !== null) return frame('event', null, null, withBase64(event, 0));
    member = key;
  }
  if (member === null) return frame('event', null, null, event);
  const value = event[member];
  if (member === '$unknown' && Array.isArray(value) && value.length === 2 && typeof value[0] === 'string') {
    return frame('event', value[0], null, withBase64(value[1], 0));
  }
  if (member.endsWith('Exception')) return frame('exception', null, member, withBase64(value, 0));
  return frame('event', member, null, withBase64(value, 0));
}

/** True for a value that already is an `EventStreamFrame` (as `bedrockFramesFromSdkStream` yields): no SDK event has these members. */
function isFrame(value: JsonObject): value is JsonObject & EventStreamFrame {
  const payload = value.payload;
  return typeof value.messageType === 'string' && 'eventType' in value && 'exceptionType' in value && isJsonObject(payload) && typeof payload.ok === 'boolean';
}

/**
 * The `exception` frame for what the SDK's `stream` iterator threw, when it is a Bedrock stream
 * exception: an instance of one of the SDK's exception classes (by `name`: `ThrottlingException`
 * → `throttlingException` …), or any error the SDK marks as a service error (`$fault` set; its
 * `name` is then the type). The payload holds its `message` and its other own fields (such as
 * `originalStatusCode`), without the SDK's `$`-fields. Null for anything else (a network
 * failure, an abort): that is a transport failure, for the caller to report as such.
 */
export function bedrockFrameFromSdkError(error: unknown): EventStreamFrame | null {
  if (!(error instanceof Error) && !isJsonObject(error)) return null;
  const fields = error as { readonly name?: unknown; readonly message?: unknown; readonly $fault?: unknown };
  const name = typeof fields.name === 'string' ? fields.name : null;
  const known = name === null ? undefined : EXCEPTION_TYPES.get(name);
  if (known === undefined && (fields.$fault === undefined || name === null)) return null;
  const payload: Record<string, unknown> = {};
  if (typeof fields.message === 'string') payload.message = fields.message;
  for (const key of Object.keys(error)) {
    if (key.startsWith('$') || key === 'name' || key === 'message' || key === 'stack' || (error as Record<string, unknown>)[key] === undefined) continue;
    Object.defineProperty(payload, key, { value: withBase64((error as Record<string, unknown>)[key], 0), enumerable: true, writable: true, configurable: true });
  }
  return frame('exception', null, known ?? name, payload);
}

/**
 * The frames of the SDK's `ConverseStreamCommand` output `stream`, in order: each event through
 * `bedrockFrameFromSdkEvent`; a Bedrock exception the iterator throws becomes the last frame
 * (`bedrockFrameFromSdkError`); any other throw is passed on as it is. Pass it to `consumeStream`
 * (`format: 'bedrock-converse'`) instead of the SDK's stream itself so that an exception is a
 * `provider` error with its type as code rather than a failure of the source.
 */
export async function* bedrockFramesFromSdkStream(stream: AsyncIterable<unknown>): AsyncGenerator<EventStreamFrame, void, undefined> {
  try {
    for await (const event of stream) yield bedrockFrameFromSdkEvent(event);
  } catch (error) {
    const exception = bedrockFrameFromSdkError(error);
    if (exception === null) throw error;
    yield exception;
  }
}

/**
 * `value` with every `Uint8Array` in it as base64 text and every SDK `{ $unknown: [name, value] }`
 * as `{ "<name>": value }`; the same object (no copy) when it holds neither. Arrays and objects
 * are looked into up to `MAX_DEPTH`; keys stay own keys.
 */
function withBase64(value: unknown, depth: number): unknown {
  if (value instanceof Uint8Array) return bytesToBase64(value);
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const converted = withBase64(item, depth + 1);
      if (converted !== item) (copy ??= value.slice())[i] = converted;
    }
    return copy ?? value;
  }
  const object = value as Record<string, unknown>;
  const unknownMember = object.$unknown;
  if (Array.isArray(unknownMember) && unknownMember.length === 2 && typeof unknownMember[0] === 'string' && Object.keys(object).length === 1) {
    // The SDK's member of a union it does not know (a delta or block kind newer than the SDK): back to `{"<name>": value}`.
    const named: Record<string, unknown> = {};
    Object.defineProperty(named, unknownMember[0], { value: withBase64(unknownMember[1], depth + 1), enumerable: true, writable: true, configurable: true });
    return named;
  }
  let copy: Record<string, unknown> | null = null;
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    const item = object[key];
    const converted = withBase64(item, depth + 1);
    if (converted === item) continue;
    copy ??= { ...object };
    Object.defineProperty(copy, key, { value: converted, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}
