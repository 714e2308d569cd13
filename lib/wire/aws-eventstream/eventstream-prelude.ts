// The prelude of an `application/vnd.amazon.eventstream` message: its total length (uint32, big
// endian, the whole message), the length of its headers (uint32 BE) and the CRC32 of those eight
// bytes. Headers and payload follow; the last four bytes are the CRC32 of everything before them.

import { crc32 } from './crc32';

/** Bytes of the prelude: total length, headers length, prelude CRC. */
export const PRELUDE_BYTES = 12;

/** Bytes of a message besides its headers and payload: the prelude and the message CRC. */
export const FRAMING_BYTES = 16;

/** The unsigned big-endian 32-bit integer at `bytes[at, at + 4)` (the caller checked they are there). */
export function readUint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}

/**
 * What is wrong with the prelude at `bytes[at, at + 12)`, checked in this order: its CRC (`computed`
 * is `crc32` of its first eight bytes), then a total length too short for the framing, then headers
 * longer than the total leaves room for; null when it is sound. The caller checked the twelve
 * bytes are there.
 */
export function preludeProblem(bytes: Uint8Array, at: number, computed: number): string | null {
  const sent = readUint32(bytes, at + 8);
  if (sent !== computed) {
    return `An event-stream message's prelude checksum does not match its bytes (CRC32 ${hex(computed)} computed, ${hex(sent)} sent)`;
  }
  const total = readUint32(bytes, at);
  if (total < FRAMING_BYTES) {
    return `An event-stream message claims a total length of ${total} bytes, less than the ${FRAMING_BYTES} bytes of its prelude and checksum`;
  }
  const headers = readUint32(bytes, at + 4);
  if (headers > total - FRAMING_BYTES) {
    return `An event-stream message claims ${headers} bytes of headers, more than its total length of ${total} bytes leaves room for (${total - FRAMING_BYTES})`;
  }
  return null;
}

/**
 * Whether the first bytes of a body begin an `application/vnd.amazon.eventstream` message: its
 * prelude's CRC32 matches and its lengths are possible ('eventstream'), they do not ('not'), or
 * fewer than the 12 prelude bytes have arrived and those there are could still begin one
 * ('need-more'). Reads at most the first 12 bytes; `bytes` may be any prefix of the body.
 */
export function eventStreamPreludeVerdict(bytes: Uint8Array): 'eventstream' | 'not' | 'need-more' {
  if (bytes.length >= PRELUDE_BYTES) return preludeProblem(bytes, 0, crc32(bytes, 0, 8)) === null ? 'eventstream' : 'not';
  // Decided early when the lengths alone already rule a message out.
  if (bytes.length >= 4 && readUint32(bytes, 0) < FRAMING_BYTES) return 'not';
  if (bytes.length >= 8 && readUint32(bytes, 4) > readUint32(bytes, 0) - FRAMING_BYTES) return 'not';
  return 'need-more';
}
