// The producer's per-token path (SPEC §13 wire format v1): a delta or a tool-call delta is taken
// as its opening and its text (nothing is measured or encoded then) and the batch's SSE text is
// written as UTF-8 in one pass when the batch is cut, escapes included and its exact length
// counted as it is written, byte for byte what
// encoding each event on its own writes (`encodeEvent` with `JSON.stringify` of the event's data,
// then UTF-8; the property test in test/relay/event-batch.test.ts drives the producer's writer
// against that plain path).

const utf8 = new TextEncoder();

/** 10⁰ … 10¹⁵: the decimal length of a sequence or index (both are safe integers). */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** Digits of the non-negative integer `value`. */
function decimalLength(value: number): number {
  let digits = 1;
  while (digits < 16 && value >= (POWERS_OF_TEN[digits] as number)) digits++;
  return digits;
}

/** The short escapes `JSON.stringify` writes for control characters (`\b \t \n \f \r`), by code; 0 for `\u00XX`. */
const SHORT_ESCAPES = new Uint8Array(32);
SHORT_ESCAPES.set([0x62, 0x74, 0x6e, 0, 0x66, 0x72], 8);
const HEX_DIGITS = new Uint8Array([0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66]);

/**
 * How many code units longer `JSON.stringify(text)` is than `text` within quotes: one for a quote,
 * a backslash or a control character with a short escape, five for any other control character
 * and for a lone surrogate (`\uXXXX`); 0 when `text` goes in as it is.
 */
function jsonEscapeExtra(text: string): number {
  let extra = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x20) extra += SHORT_ESCAPES[code] === 0 ? 5 : 1;
    else if (code === 0x22 || code === 0x5c) extra += 1;
    else if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(at + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) at++;
      else extra += 5;
    }
  }
  return extra;
}

/** Writes `\u` and the four lowercase hex digits of `code` into `out` at `at` (after the backslash written already); where the writing ended. */
function writeUnicodeEscape(out: Uint8Array, at: number, code: number): number {
  out[at++] = 0x75;
  out[at++] = HEX_DIGITS[code >> 12] as number;
  out[at++] = HEX_DIGITS[(code >> 8) & 15] as number;
  out[at++] = HEX_DIGITS[(code >> 4) & 15] as number;
  out[at++] = HEX_DIGITS[code & 15] as number;
  return at;
}

/** How many code units the escapes `writeJsonUtf8` wrote added (it adds to this; the caller resets it). */
let escapedUnits = 0;

/**
 * Writes the UTF-8 of `text` escaped as `JSON.stringify` escapes a string (without its quotes)
 * into `out` at `at`: `\"`, `\\`, the short escapes, `\u00XX` (lowercase) for other control
 * characters and `\uXXXX` for a lone surrogate; at most 6 bytes per code unit. Returns where the
 * writing ended, and adds to `escapedUnits` how many code units longer the escaped text is.
 */
function writeJsonUtf8(out: Uint8Array, at: number, text: string): number {
  const length = text.length;
  for (let k = 0; k < length; k++) {
    const code = text.charCodeAt(k);
    if (code < 0x80) {
      if (code >= 0x20 && code !== 0x22 && code !== 0x5c) {
        out[at++] = code;
        continue;
      }
      out[at++] = 0x5c;
      if (code >= 0x20) {
        out[at++] = code;
        escapedUnits += 1;
      } else if (SHORT_ESCAPES[code] !== 0) {
        out[at++] = SHORT_ESCAPES[code] as number;
        escapedUnits += 1;
      } else {
        at = writeUnicodeEscape(out, at, code);
        escapedUnits += 5;
      }
    } else if (code < 0x800) {
      out[at++] = 0xc0 | (code >> 6);
      out[at++] = 0x80 | (code & 0x3f);
    } else if (code >= 0xd800 && code <= 0xdfff) {
      const next = k + 1 < length ? text.charCodeAt(k + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const point = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        out[at++] = 0xf0 | (point >> 18);
        out[at++] = 0x80 | ((point >> 12) & 0x3f);
        out[at++] = 0x80 | ((point >> 6) & 0x3f);
        out[at++] = 0x80 | (point & 0x3f);
        k++;
      } else {
        out[at++] = 0x5c;
        at = writeUnicodeEscape(out, at, code);
        escapedUnits += 5;
      }
    } else {
      out[at++] = 0xe0 | (code >> 12);
      out[at++] = 0x80 | ((code >> 6) & 0x3f);
      out[at++] = 0x80 | (code & 0x3f);
    }
  }
  return at;
}

/**
 * Writes the UTF-8 of an event's whole text into `out` at `at` (a lone surrogate as U+FFFD); where
 * the writing ended. The engine's encoder, not `writeUtf8`: such a text is built by concatenation,
 * and reading a concatenated string one code unit at a time is several times slower than reading
 * a flat one.
 */
function writeWhole(out: Uint8Array, at: number, text: string): number {
  return at + utf8.encodeInto(text, out.subarray(at)).written;
}

/** Writes the decimal digits of the non-negative integer `value` into `out` at `at`; where the writing ended. */
function writeDecimal(out: Uint8Array, at: number, value: number): number {
  const end = at + decimalLength(value);
  if (value <= 0x7fffffff) {
    // Integer arithmetic while the value fits 31 bits (every sequence and index in practice).
    for (let k = end - 1; k >= at; k--) {
      const rest = (value / 10) | 0;
      out[k] = 0x30 + value - rest * 10;
      value = rest;
    }
    return end;
  }
  for (let k = end - 1; k >= at; k--) {
    out[k] = 0x30 + (value % 10);
    value = Math.floor(value / 10);
  }
  return end;
}

/** The largest scratch array kept from one cut to the next. */
const MAX_KEPT_SCRATCH = 1 << 20;
/** A frame's buffer: room for the close, `id: `, 16 digits and a delta's opening; a larger one (a long opening) is not kept past the next smaller opening. */
const FRAME_BYTES = 96;
const MAX_KEPT_FRAME = 1024;

/** Where a frame's `id: ` starts: after the close of a framed event (`"}\n\n`), which the frame holds in front. */
const ID_AT = 4;

/**
 * The bytes before an event's text, `id: <sequence>` and, for a framed event, its opening (e.g.
 * `\nevent: delta\ndata: {"index":…,"type":…,"text":"`), kept in one array whose digits count up
 * in place, so that writing them is one copy. In front of them it holds the close of a framed
 * event, `"}\n\n`: after one, the close and the next frame are one copy too.
 */
class Frame {
  private buffer = new Uint8Array(FRAME_BYTES);
  /** Views of `buffer`: `id: <digits>`, and the current opening's frame, each with and without the close in front. */
  private idView = this.buffer;
  private closedIdView = this.buffer;
  private openingView = this.buffer;
  private closedOpeningView = this.buffer;
  /** The opening written after the digits (null: none, or the digits moved since). */
  private opening: string | null = null;
  private sequence = 0;
  private digits = 0;

  constructor() {
    this.buffer.set([0x22, 0x7d, 0x0a, 0x0a, 0x69, 0x64, 0x3a, 0x20]);
  }

  /** Sets the frame to `sequence` (at the first event of a cut: one more than the last, unless the caller jumped). */
  start(sequence: number): void {
    if (sequence === this.sequence + 1 && this.digits > 0) {
      this.next();
      return;
    }
    this.write(sequence, decimalLength(sequence));
  }

  /** Counts the digits up by one. */
  next(): void {
    const sequence = ++this.sequence;
    const buffer = this.buffer;
    let k = ID_AT + 3 + this.digits;
    while (k > ID_AT + 3 && buffer[k] === 0x39) buffer[k--] = 0x30;
    if (k === ID_AT + 3) this.write(sequence, this.digits + 1);
    else buffer[k] = (buffer[k] as number) + 1;
  }

  /** The length of `id: <sequence>`. */
  get idLength(): number {
    return 4 + this.digits;
  }

  /** `id: <sequence>`, after the close of a framed event when `closing`. */
  id(closing: boolean): Uint8Array {
    return closing ? this.closedIdView : this.idView;
  }

  /** The frame of an event with `opening` (compared by identity: the writer passes one string per run), after the close of a framed event when `closing`. */
  framed(opening: string, closing: boolean): Uint8Array {
    if (opening !== this.opening) this.open(opening);
    return closing ? this.closedOpeningView : this.openingView;
  }

  private write(sequence: number, digits: number): void {
    this.sequence = sequence;
    this.digits = digits;
    // The opening moves with the digits: it is written again at the next framed event.
    this.opening = null;
    writeDecimal(this.buffer, ID_AT + 4, sequence);
    this.views(ID_AT + 4 + digits);
  }

  private open(opening: string): void {
    this.opening = opening;
    const bytes = utf8.encode(opening);
    const start = ID_AT + 4 + this.digits;
    const needed = start + bytes.length;
    const size = this.buffer.length;
    if (size < needed || (size > MAX_KEPT_FRAME && needed <= FRAME_BYTES)) {
      const resized = new Uint8Array(Math.max(needed, FRAME_BYTES));
      resized.set(this.buffer.subarray(0, start));
      this.buffer = resized;
      this.views(start);
    }
    this.buffer.set(bytes, start);
    this.openingView = this.buffer.subarray(ID_AT, needed);
    this.closedOpeningView = this.buffer.subarray(0, needed);
  }

  private views(start: number): void {
    this.idView = this.buffer.subarray(ID_AT, start);
    this.closedIdView = this.buffer.subarray(0, start);
  }
}

/**
 * The most code units a framed event's SSE text takes beyond its opening and text: `id: `, 16
 * digits and the close `"}\n\n`.
 */
const FRAMED_OVERHEAD = 24;
/** The most code units one code unit of a framed event's text takes once escaped (`\u001f`, a lone `\udfff`). */
const MAX_ESCAPED_UNITS = 6;

/**
 * The events of the batch being filled, from sequence `first` on. A framed event (a delta, a
 * tool-call delta: data that is a JSON object ending in one string member) is kept as its
 * opening and its text (the text the core keeps anyway); any other event as its text after the
 * `id:` line. Adding an event only holds it and raises `bound`, an upper bound on the length of
 * the events not yet measured; `settle` measures them: the exact length of the SSE text
 * (UTF-16 code units) of every event held, so that the writer cuts by `flushBytes` and bounds
 * `maxResponseBytes` as if every event were encoded at once, measuring only when the bound comes
 * near a limit. `cut` writes the UTF-8 of the SSE text of the events held
 * (`id: <sequence>\nevent: <type>\ndata: <JSON>\n\n` each) in one pass and lets go of them.
 */
export class EventBatch {
  /** Per event, the first `size` slots (reused from batch to batch): a framed event's opening, null for a whole event. */
  private readonly openings: (string | null)[] = [];
  /** Per event: a framed event's text (its JSON string's content, unescaped), or the event's text after its `id:` line. */
  private readonly strings: string[] = [];
  private size = 0;
  /** How many events, from the first, are measured. */
  private measured = 0;
  /** The exact length of the events measured, and of the last one measured. */
  length = 0;
  lastLength = 0;
  /** The exact length of the events the last `cut` wrote. */
  cutLength = 0;
  /** At least the length of the events held but not measured. */
  bound = 0;
  private readonly frame = new Frame();
  /** Where `cut` writes (grown as needed, reused). */
  private scratch = new Uint8Array(0);
  /**
   * Sequences below this have `sequenceDigits` digits. Always read from `POWERS_OF_TEN` (numbers
   * held as doubles), so that its representation, and the batch's hidden class, never change
   * (see open-relay.ts: a batch is kept for its shape).
   */
  private nextDigitAt = POWERS_OF_TEN[1] as number;
  private sequenceDigits = 1;
  /** The first sequence held (meaningful while `count > 0`). */
  first = 0;

  /** How many events are held. */
  get count(): number {
    return this.size;
  }

  /**
   * Holds as event `sequence` (the next one) the event whose text after the `id:` line is
   * `opening` (up to and including a string member's opening quote, e.g.
   * `\nevent: delta\ndata: {"index":0,"type":"text","text":"`), then `text` as that JSON string's
   * content, then `"}\n\n`; how many events are held. Pass the same string object for a run of
   * events with one opening: the frame is encoded once per run.
   */
  framed(sequence: number, opening: string, text: string): number {
    const at = this.size++;
    if (at === 0) this.first = sequence;
    this.openings[at] = opening;
    this.strings[at] = text;
    this.bound += FRAMED_OVERHEAD + opening.length + MAX_ESCAPED_UNITS * text.length;
    return this.size;
  }

  /** Holds event `sequence` of `type` with the one-line JSON `data`, measured: its SSE text's length. */
  event(sequence: number, type: string, data: string): number {
    const rest = `\nevent: ${type}\ndata: ${data}\n\n`;
    const at = this.size++;
    if (at === 0) this.first = sequence;
    this.openings[at] = null;
    this.strings[at] = rest;
    this.settle();
    return this.lastLength;
  }

  /** Measures the events held: `length` is then exact and `bound` 0. */
  settle(): void {
    const { openings, strings } = this;
    let length = this.length;
    let last = this.lastLength;
    for (let k = this.measured; k < this.size; k++) {
      const opening = openings[k] as string | null;
      const string = strings[k] as string;
      const digits = this.digitsOf(this.first + k);
      // `id: ` + sequence + the text after the id line; for a framed event, opening + the text's JSON content + `"}\n\n`
      last = opening === null ? 4 + digits + string.length : 8 + digits + opening.length + string.length + jsonEscapeExtra(string);
      length += last;
    }
    this.length = length;
    this.lastLength = last;
    this.measured = this.size;
    this.bound = 0;
  }

  /** Lets go of every event held. */
  clear(): void {
    this.size = 0;
    this.measured = 0;
    this.length = 0;
    this.bound = 0;
  }

  /** Lets go of the event added last (the writer puts another in its place); every event held is measured. */
  dropLast(): void {
    this.size--;
    this.measured--;
    this.length -= this.lastLength;
  }

  /**
   * The UTF-8 of the SSE text of all events held, or of all but the last (`allButLast`: every
   * event must be measured), in a fresh array of its exact size; they are let go of, and the last
   * one, when kept, becomes the batch (from sequence `first` on). The events cut need not be
   * measured: their exact length is measured as they are written (`cutLength`).
   */
  cut(allButLast = false): Uint8Array {
    const { openings, strings } = this;
    const count = allButLast ? this.size - 1 : this.size;
    // UTF-8 takes at most 3 bytes per code unit of a measured event; an unmeasured one's bound
    // allows 6 per code unit of its text, and its opening and id are within 3 times the bound.
    const most = 3 * ((allButLast ? this.length - this.lastLength : this.length) + this.bound);
    if (this.scratch.length < most) this.scratch = new Uint8Array(Math.max(most, 2 * this.scratch.length));
    const out = this.scratch;
    let at = 0;
    const frame = this.frame;
    frame.start(this.first);
    let sequence = this.first;
    let units = 0;
    escapedUnits = 0;
    // The last event written was framed: its close goes in front of the next frame (or after the loop).
    let closing = false;
    for (let k = 0; k < count; k++, sequence++) {
      const opening = openings[k] as string | null;
      const string = strings[k] as string;
      if (k > 0) frame.next();
      if (opening === null) {
        const id = frame.id(closing);
        out.set(id, at);
        at = writeWhole(out, at + id.length, string);
        // `id: ` + sequence + the text after the id line
        units += frame.idLength + string.length;
        closing = false;
        continue;
      }
      const bytes = frame.framed(opening, closing);
      out.set(bytes, at);
      at = writeJsonUtf8(out, at + bytes.length, string);
      // `id: ` + sequence + opening + the text (its escapes are counted as written) + `"}\n\n`
      units += frame.idLength + opening.length + string.length + 4;
      closing = true;
    }
    if (closing) {
      out[at++] = 0x22;
      out[at++] = 0x7d;
      out[at++] = 0x0a;
      out[at++] = 0x0a;
    }
    this.cutLength = units + escapedUnits;
    if (allButLast) {
      openings[0] = openings[count] as string | null;
      strings[0] = strings[count] as string;
      this.size = 1;
      this.measured = 1;
      this.length = this.lastLength;
    } else {
      this.size = 0;
      this.measured = 0;
      this.length = 0;
      this.bound = 0;
    }
    this.first = sequence;
    const bytes = out.slice(0, at);
    // A batch of a huge event leaves no huge scratch behind.
    if (out.length > MAX_KEPT_SCRATCH) this.scratch = new Uint8Array(0);
    return bytes;
  }

  private digitsOf(sequence: number): number {
    if (sequence >= this.nextDigitAt || sequence < this.nextDigitAt / 10) {
      this.sequenceDigits = decimalLength(sequence);
      this.nextDigitAt = this.sequenceDigits < 16 ? (POWERS_OF_TEN[this.sequenceDigits] as number) : Infinity;
    }
    return this.sequenceDigits;
  }
}
