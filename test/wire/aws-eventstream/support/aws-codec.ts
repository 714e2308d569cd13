// The AWS event-stream codec (@smithy/eventstream-codec), the reference the decoder is checked
// against: it encodes the messages the tests feed and decodes them for the expected frames.

import { crc32 as zlibCrc32 } from 'node:zlib';
import { EventStreamCodec, type Message } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

export type { Message, MessageHeaders, MessageHeaderValue } from '@smithy/eventstream-codec';

export const AWS_CODEC = new EventStreamCodec(toUtf8, fromUtf8);

/** The messages encoded by the AWS codec, one after another in one body. */
export function awsEncode(messages: readonly Message[]): Uint8Array {
  return concat(messages.map((message) => AWS_CODEC.encode(message)));
}

/**
 * Every message of a body, decoded by the AWS codec (both CRCs checked there); the body is cut at
 * each message's total length, which is all the codec's own stream splitter does.
 */
export function awsDecodeAll(body: Uint8Array): Message[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const messages: Message[] = [];
  for (let at = 0; at < body.length;) {
    const total = view.getUint32(at);
    messages.push(AWS_CODEC.decode(body.subarray(at, at + total)));
    at += total;
  }
  return messages;
}

/** What the decoder's frame must hold for a message, read from the AWS codec's decoding by the contract's rules. */
export interface ExpectedFrame {
  readonly messageType: string;
  readonly eventType: string | null;
  readonly exceptionType: string | null;
  readonly errorMessage: string | null;
  readonly payload: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly text: string };
}

function stringHeader(message: Message, name: string): string | null {
  const header = Object.prototype.hasOwnProperty.call(message.headers, name) ? message.headers[name] : undefined;
  return header !== undefined && header.type === 'string' ? header.value : null;
}

/** The frame a message decoded by the AWS codec stands for (its body read with the AWS UTF-8 reader, then `JSON.parse`). */
export function expectedFrame(message: Message): ExpectedFrame {
  const messageType = stringHeader(message, ':message-type') ?? '';
  const text = toUtf8(message.body);
  let payload: ExpectedFrame['payload'];
  try {
    payload = text === '' ? { ok: false, text } : { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    payload = { ok: false, text };
  }
  return {
    messageType,
    eventType: stringHeader(message, ':event-type'),
    exceptionType: messageType === 'exception' ? stringHeader(message, ':exception-type') : messageType === 'error' ? stringHeader(message, ':error-code') : null,
    errorMessage: messageType === 'error' ? stringHeader(message, ':error-message') : null,
    payload,
  };
}

/** A decoder frame as plain data, for deep equality with an `ExpectedFrame`. */
export function plainFrame(frame: ExpectedFrame): ExpectedFrame {
  return {
    messageType: frame.messageType,
    eventType: frame.eventType,
    exceptionType: frame.exceptionType,
    errorMessage: frame.errorMessage,
    payload: frame.payload.ok ? { ok: true, value: frame.payload.value } : { ok: false, text: frame.payload.text },
  };
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function uint32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

/**
 * A message built by hand from raw header bytes, with `total` and `headersLength` as given (the
 * true ones by default) and both CRCs computed by zlib: for framing the AWS codec refuses to
 * write (broken headers, impossible lengths).
 */
export function handFrame(headerBytes: Uint8Array, payload: Uint8Array, lengths: { total?: number; headersLength?: number } = {}): Uint8Array {
  const total = lengths.total ?? 16 + headerBytes.length + payload.length;
  const prelude = concat([uint32(total), uint32(lengths.headersLength ?? headerBytes.length)]);
  const head = concat([prelude, uint32(zlibCrc32(prelude)), headerBytes, payload]);
  return concat([head, uint32(zlibCrc32(head))]);
}

/** A prelude alone (its CRC computed by zlib), claiming `total` bytes with `headersLength` bytes of headers. */
export function handPrelude(total: number, headersLength: number): Uint8Array {
  const prelude = concat([uint32(total), uint32(headersLength)]);
  return concat([prelude, uint32(zlibCrc32(prelude))]);
}
