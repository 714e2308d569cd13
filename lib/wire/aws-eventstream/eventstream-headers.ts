// The headers of an event-stream message, one after another: name length (1 byte), name (UTF-8),
// value type (1 byte), value. Types: 0 true and 1 false (no bytes), 2 byte (1), 3 short (2),
// 4 int (4), 5 long (8), 6 bytes and 7 string (uint16 BE length, then that many bytes),
// 8 timestamp (8, milliseconds), 9 uuid (16). Every header is read with its bounds checked; only
// the string headers a frame reports are kept, each in its own field (never a key of an object).

// Not fatal: a byte that is not UTF-8 reads as U+FFFD. The BOM is kept (a header is text as sent).
const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Where a kept header goes: an index into `KeptHeaders`' previous values. */
type Slot = 0 | 1 | 2 | 3 | 4 | 5;
const NONE = 0;
const MESSAGE_TYPE = 1;
const EVENT_TYPE = 2;
const EXCEPTION_TYPE = 3;
const ERROR_CODE = 4;
const ERROR_MESSAGE = 5;

/** Headers up to this many bytes are remembered, to be recognised when the next message repeats them. */
const REPEAT_BYTES = 256;

/** The string headers of one message that a frame reports (null when absent or not a string). */
export class KeptHeaders {
  messageType: string | null = null;
  eventType: string | null = null;
  exceptionType: string | null = null;
  errorCode: string | null = null;
  errorMessage: string | null = null;
  // The value last decoded for each slot: a header repeats from message to message, and comparing
  // its bytes with it is cheaper than decoding them again.
  private readonly previous: (string | null)[] = [null, null, null, null, null, null];
  // The bytes of the last headers read (when sound and at most REPEAT_BYTES long): a stream's
  // messages mostly repeat their headers byte for byte, and comparing them is cheaper than reading them.
  private readonly last = new Uint8Array(REPEAT_BYTES);
  private readonly lastView = new DataView(this.last.buffer);
  private lastLength = -1;

  /**
   * Reads the headers at `bytes[start, end)` into the fields (`view` is a DataView over exactly
   * `bytes`); returns what is wrong with them (a header running past `end`, an unknown value
   * type), or null.
   */
  read(bytes: Uint8Array, view: DataView, start: number, end: number): string | null {
    const length = end - start;
    if (length === this.lastLength && sameBytes(view, start, this.lastView, length)) return null;
    const problem = this.parse(bytes, start, end);
    this.lastLength = problem === null && length <= REPEAT_BYTES ? length : -1;
    if (this.lastLength >= 0) this.last.set(bytes.subarray(start, end));
    return problem;
  }

  private parse(bytes: Uint8Array, start: number, end: number): string | null {
    this.messageType = this.eventType = this.exceptionType = this.errorCode = this.errorMessage = null;
    let at = start;
    for (let index = 0; at < end; index++) {
      const nameStart = at + 1;
      const nameEnd = nameStart + bytes[at];
      if (nameEnd >= end) return runsPast(index);
      const type = bytes[nameEnd];
      at = nameEnd + 1;
      let length: number;
      switch (type) {
        case 0:
        case 1:
          length = 0;
          break;
        case 2:
          length = 1;
          break;
        case 3:
          length = 2;
          break;
        case 4:
          length = 4;
          break;
        case 5:
        case 8:
          length = 8;
          break;
        case 9:
          length = 16;
          break;
        case 6:
        case 7:
          if (at + 2 > end) return runsPast(index);
          length = (bytes[at] << 8) | bytes[at + 1];
          at += 2;
          break;
        default:
          return `An event-stream message's header ${index} has value type ${type}, not one of the types 0 to 9`;
      }
      if (at + length > end) return runsPast(index);
      const slot = slotOf(bytes, nameStart, nameEnd);
      // As with any repeated header, the last one counts; one that is not a string is not kept.
      if (slot !== NONE) this.keep(slot, type === 7 ? this.text(slot, bytes, at, at + length) : null);
      at += length;
    }
    return null;
  }

  private keep(slot: Slot, value: string | null): void {
    switch (slot) {
      case MESSAGE_TYPE:
        this.messageType = value;
        break;
      case EVENT_TYPE:
        this.eventType = value;
        break;
      case EXCEPTION_TYPE:
        this.exceptionType = value;
        break;
      case ERROR_CODE:
        this.errorCode = value;
        break;
      default:
        this.errorMessage = value;
        break;
    }
  }

  private text(slot: Slot, bytes: Uint8Array, start: number, end: number): string {
    const previous = this.previous[slot];
    if (previous !== null && asciiEquals(bytes, start, end, previous)) return previous;
    const value = UTF8.decode(bytes.subarray(start, end));
    this.previous[slot] = value;
    return value;
  }
}

/** True when the `length` bytes of `view` from `start` equal the first `length` of `last` (compared a word at a time). */
function sameBytes(view: DataView, start: number, last: DataView, length: number): boolean {
  let i = 0;
  for (; i + 4 <= length; i += 4) if (view.getInt32(start + i) !== last.getInt32(i)) return false;
  for (; i < length; i++) if (view.getUint8(start + i) !== last.getUint8(i)) return false;
  return true;
}

function runsPast(index: number): string {
  return `An event-stream message's header ${index} runs past the end of its headers`;
}

/**
 * True when `bytes[start, end)` are the ASCII characters of `text`. Exact for UTF-8: an ASCII
 * byte decodes to itself alone, and no other byte sequence decodes to an ASCII character.
 */
function asciiEquals(bytes: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte >= 0x80 || byte !== text.charCodeAt(i - start)) return false;
  }
  return true;
}

/** The slot of the header named by `bytes[start, end)` (its UTF-8 bytes compared with the ASCII names). */
function slotOf(bytes: Uint8Array, start: number, end: number): Slot {
  switch (end - start) {
    case 13:
      return asciiEquals(bytes, start, end, ':message-type') ? MESSAGE_TYPE : NONE;
    case 11:
      if (asciiEquals(bytes, start, end, ':event-type')) return EVENT_TYPE;
      return asciiEquals(bytes, start, end, ':error-code') ? ERROR_CODE : NONE;
    case 15:
      return asciiEquals(bytes, start, end, ':exception-type') ? EXCEPTION_TYPE : NONE;
    case 14:
      return asciiEquals(bytes, start, end, ':error-message') ? ERROR_MESSAGE : NONE;
    default:
      return NONE;
  }
}
