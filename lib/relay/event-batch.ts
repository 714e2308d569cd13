// The producer's per-token path (SPEC §13 wire format v1): a delta is taken as its raw values and
// the batch's SSE text is written in one pass when the batch is cut, byte for byte what encoding
// each event on its own writes (`encodeEvent` with `JSON.stringify` of the delta's data; the
// property test in test/relay/event-batch.test.ts drives this class against that plain path).

import type { DeltaType } from '../parts/part-index-counter';

/** 10⁰ … 10¹⁵: the decimal length of a sequence or index (both are safe integers). */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** Digits of the non-negative integer `value`. */
function decimalLength(value: number): number {
  let digits = 1;
  while (digits < 16 && value >= (POWERS_OF_TEN[digits] as number)) digits++;
  return digits;
}

/**
 * True when `JSON.stringify(text)` is `text` within quotes: no quote, backslash, control
 * character or lone surrogate (a surrogate pair passes as it is).
 */
function isPlainJson(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return false;
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(at + 1);
      if (code >= 0xdc00 || !(next >= 0xdc00 && next <= 0xdfff)) return false;
      at++;
    }
  }
  return true;
}

/** `code` flags: the delta is reasoning; its string is already JSON (quoted and escaped). */
const REASONING = 1;
const QUOTED = 2;
/** The `code` of an event held as its whole text after the `id:` line. */
const WHOLE = -1;

/**
 * The events of the batch being filled, from sequence `first` on. A payload-free delta is kept as
 * its index, type and text (the text the core keeps anyway); any other event as its text after
 * the `id:` line. Each add returns the exact length of the event's SSE text, so that the writer
 * cuts by `flushBytes` and bounds `maxResponseBytes` as if every event were encoded at once.
 * `cut` writes the SSE text of the events held (`id: <sequence>\nevent: <type>\ndata: <JSON>\n\n`
 * each) as one flat string and empties the batch.
 */
export class EventBatch {
  /** Per event, the first `size` slots (reused from batch to batch): a delta's `index * 4 + flags`, or `WHOLE`. */
  private readonly codes: number[] = [];
  /** Per event: a delta's text (or its JSON when `QUOTED`), or the event's text after its `id:` line. */
  private readonly strings: string[] = [];
  private size = 0;
  /** The pieces of the text being written by `cut` (reused). */
  private readonly pieces: (string | number)[] = [];
  /** The opening of the last delta's data, `\nevent: delta\ndata: {"index":…,"type":…,"text":`. */
  private openingCode = -1;
  private opening = '';
  /** Sequences below this have `sequenceDigits` digits. */
  private nextDigitAt = 10;
  private sequenceDigits = 1;
  /** The first sequence held (meaningful while `count > 0`). */
  first = 0;

  /** How many events are held. */
  get count(): number {
    return this.size;
  }

  /** Holds the payload-free delta `(index, type, text)` as event `sequence` (the next one); its SSE text's length. */
  delta(sequence: number, index: number, type: DeltaType, text: string): number {
    const code = index * 4 + (type === 'reasoning' ? REASONING : 0);
    if (code !== this.openingCode) this.open(code, index, type);
    const at = this.size++;
    if (at === 0) this.first = sequence;
    let jsonLength = text.length + 2;
    if (isPlainJson(text)) {
      this.codes[at] = code;
      this.strings[at] = text;
    } else {
      const json = JSON.stringify(text);
      jsonLength = json.length;
      this.codes[at] = code + QUOTED;
      this.strings[at] = json;
    }
    // `id: ` + sequence + opening + JSON + `}\n\n`
    return 7 + this.digitsOf(sequence) + this.opening.length + jsonLength;
  }

  /** Holds event `sequence` of `type` with the one-line JSON `data`; its SSE text's length. */
  event(sequence: number, type: string, data: string): number {
    const rest = `\nevent: ${type}\ndata: ${data}\n\n`;
    const at = this.size++;
    if (at === 0) this.first = sequence;
    this.codes[at] = WHOLE;
    this.strings[at] = rest;
    return 4 + this.digitsOf(sequence) + rest.length;
  }

  /** Lets go of every event held. */
  clear(): void {
    this.size = 0;
  }

  /** Lets go of the event added last (the writer puts another in its place). */
  dropLast(): void {
    this.size--;
  }

  /**
   * The SSE text of the first `count` events held (all by default), as one flat string; they are
   * let go of, and the ones after them (at most one) become the batch, from sequence `first + count` on.
   */
  cut(count: number = this.size): string {
    const { codes, strings, pieces } = this;
    let sequence = this.first;
    let code = -1;
    let opening = '';
    let openingQuote = '';
    for (let at = 0; at < count; at++, sequence++) {
      const current = codes[at] as number;
      const string = strings[at] as string;
      if (current === WHOLE) {
        pieces.push('id: ', sequence, string);
        continue;
      }
      // Arithmetic, not bit operations: an index is any safe integer.
      const quoted = current % 4 >= QUOTED;
      const run = quoted ? current - QUOTED : current;
      if (run !== code) {
        code = run;
        opening = `\nevent: delta\ndata: {"index":${Math.floor(run / 4)},"type":"${run % 2 === REASONING ? 'reasoning' : 'text'}","text":`;
        openingQuote = `${opening}"`;
      }
      if (!quoted) pieces.push('id: ', sequence, openingQuote, string, '"}\n\n');
      else pieces.push('id: ', sequence, opening, string, '}\n\n');
    }
    const text = pieces.join('');
    pieces.length = 0;
    // The events after the cut (at most one) move to the front.
    const size = this.size;
    for (let from = count; from < size; from++) {
      codes[from - count] = codes[from] as number;
      strings[from - count] = strings[from] as string;
    }
    this.size = size - count;
    this.first = sequence;
    return text;
  }

  private open(code: number, index: number, type: DeltaType): void {
    this.openingCode = code;
    this.opening = `\nevent: delta\ndata: {"index":${index},"type":"${type}","text":`;
  }

  private digitsOf(sequence: number): number {
    if (sequence >= this.nextDigitAt) {
      this.sequenceDigits = decimalLength(sequence);
      this.nextDigitAt = this.sequenceDigits < 16 ? (POWERS_OF_TEN[this.sequenceDigits] as number) : Infinity;
    }
    return this.sequenceDigits;
  }
}
