import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { StreamError } from '../../../lib/handler/stream-error';
import type { EventStreamFrame } from '../../../lib/wire/aws-eventstream/eventstream-decoder';
import type { ByteFrameDecoder } from '../../../lib/wire/frame-decoder';

// Binary `application/vnd.amazon.eventstream` bodies for the tests, written and read with the AWS
// codec itself (both CRCs computed and checked by it), until partstream's own decoder reads them.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const codec = new EventStreamCodec(
  (bytes) => decoder.decode(bytes),
  (text) => encoder.encode(text),
);

/** One message of a Converse stream, as a test writes it. */
export type WireMessage =
  | { readonly event: string; readonly payload: unknown }
  | { readonly exception: string; readonly payload: unknown }
  | { readonly error: string; readonly message: string }
  /** A payload that is not JSON (its bytes as given). */
  | { readonly event: string; readonly text: string };

/** The letters Bedrock pads every payload with (`p`), cut to a length that varies per message. */
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function withPadding(payload: unknown, n: number): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  return { ...(payload as Record<string, unknown>), p: PADDING.slice(0, 1 + ((n * 7) % PADDING.length)) };
}

function stringHeader(value: string): { type: 'string'; value: string } {
  return { type: 'string', value };
}

/** The binary body of `messages`: each an event-stream message as Bedrock frames it, with its padding field `p` added to every JSON event payload. */
export function encodeBedrockStream(messages: readonly WireMessage[]): Uint8Array {
  const parts = messages.map((message, n) => {
    let headers: MessageHeaders;
    let body: Uint8Array;
    if ('exception' in message) {
      headers = { ':message-type': stringHeader('exception'), ':exception-type': stringHeader(message.exception), ':content-type': stringHeader('application/json') };
      body = encoder.encode(JSON.stringify(message.payload));
    } else if ('error' in message) {
      headers = { ':message-type': stringHeader('error'), ':error-code': stringHeader(message.error), ':error-message': stringHeader(message.message) };
      body = new Uint8Array(0);
    } else {
      headers = { ':event-type': stringHeader(message.event), ':content-type': stringHeader('application/json'), ':message-type': stringHeader('event') };
      body = encoder.encode('text' in message ? message.text : JSON.stringify(withPadding(message.payload, n)));
    }
    return codec.encode({ headers, body });
  });
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

function headerString(headers: MessageHeaders, name: string): string | null {
  const header = headers[name];
  return header !== undefined && header.type === 'string' ? header.value : null;
}

/** What the AWS codec reads from a body: its whole messages as frames, and the bytes left after the last whole one. */
export interface DecodedBody {
  readonly frames: EventStreamFrame[];
  readonly leftover: number;
}

/** Reads `body` with the AWS codec (CRCs checked: a mismatch throws) into the frames the mapper takes. */
export function decodeBedrockBody(body: Uint8Array): DecodedBody {
  const frames: EventStreamFrame[] = [];
  let at = 0;
  while (body.length - at >= 4) {
    const total = new DataView(body.buffer, body.byteOffset + at, 4).getUint32(0);
    if (total < 16 || body.length - at < total) break;
    const message = codec.decode(body.subarray(at, at + total));
    at += total;
    const messageType = headerString(message.headers, ':message-type') ?? 'event';
    const text = decoder.decode(message.body);
    let payload: EventStreamFrame['payload'];
    try {
      payload = { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      payload = { ok: false, text };
    }
    frames.push({
      messageType,
      eventType: headerString(message.headers, ':event-type'),
      exceptionType: messageType === 'error' ? headerString(message.headers, ':error-code') : headerString(message.headers, ':exception-type'),
      errorMessage: headerString(message.headers, ':error-message'),
      payload,
    });
  }
  return { frames, leftover: body.length - at };
}

/**
 * A `ByteFrameDecoder` built on the AWS codec, for the tests to drive the Bedrock descriptor
 * through `consumeStream` until partstream's own event-stream decoder is its `createByteDecoder`:
 * it keeps the bytes of an unfinished message and hands out each whole one as a frame (a CRC
 * mismatch, or a message over `maxFrameBytes`, fails the stream `malformed`).
 */
export function codecByteDecoder(maxFrameBytes: number): ByteFrameDecoder<EventStreamFrame> {
  let pending = new Uint8Array(0);
  let failure: StreamError | null = null;
  return {
    feed(chunk: Uint8Array): readonly EventStreamFrame[] {
      if (failure !== null) return [];
      const joined = new Uint8Array(pending.length + chunk.length);
      joined.set(pending);
      joined.set(chunk, pending.length);
      let decoded: DecodedBody;
      try {
        decoded = decodeBedrockBody(joined);
      } catch (error) {
        failure = new StreamError('malformed', `An event-stream message is not readable: ${(error as Error).message}`);
        return [];
      }
      pending = joined.subarray(joined.length - decoded.leftover);
      if (pending.length >= 4 && new DataView(pending.buffer, pending.byteOffset, 4).getUint32(0) > maxFrameBytes) {
        failure = new StreamError('malformed', `An event-stream message is longer than the frame limit of ${maxFrameBytes} bytes`);
      }
      return decoded.frames;
    },
    flush: () => ({ frames: [], truncatedFrame: failure === null && pending.length > 0 }),
    ended: false,
    get failure() {
      return failure;
    },
  };
}
