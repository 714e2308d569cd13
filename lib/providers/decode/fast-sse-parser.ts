/** One dispatched Server-Sent Event, as `eventsource-parser` shapes it. */
export interface FastSseMessage {
  /** The `id` field of this event (not carried over from earlier events), or undefined. */
  readonly id: string | undefined;
  /** The `event` field, or undefined when absent or empty (the default "message" type). */
  readonly event: string | undefined;
  /** The event's data lines joined by "\n". */
  readonly data: string;
}

/** Callbacks of `createFastSseParser`, all optional. */
export interface FastSseParserCallbacks {
  /** An event was dispatched (a blank line closed an event with at least one `data` line). */
  readonly onEvent?: (message: FastSseMessage) => void;
  /** A `retry` field whose value is all ASCII digits: the reconnection time in milliseconds. */
  readonly onRetry?: (milliseconds: number) => void;
  /** A comment line (`:` first), without the colon and one following space. */
  readonly onComment?: (comment: string) => void;
}

/** A streaming Server-Sent Events parser fed with decoded text. */
export interface FastSseParser {
  /**
   * Parses the next piece of text. Line ends (CR, LF, CRLF) may fall anywhere, a CRLF may be split
   * between two pieces. Callbacks run synchronously, in stream order; one that throws leaves this
   * call and drops the rest of the piece.
   */
  feed(chunk: string): void;
  /**
   * Forgets all state: the partial line, the fields of the unfinished event, the start-of-stream
   * state (a leading BOM is stripped again). With `consume: true` the partial line is first
   * processed as if it were terminated (the unfinished event is still not dispatched).
   */
  reset(options?: { readonly consume?: boolean }): void;
  /** True while a partial line or the fields of an undispatched event are held. */
  hasPendingInput(): boolean;
  /**
   * The unterminated line held so far (`''` when the text ended with a line end), e.g. to tell a
   * stream cut inside a line from one that only lacks its final blank line. Joins the fragments
   * once; the parser's state is unchanged.
   */
  pendingLine(): string;
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;

function isDataField(text: string, at: number): boolean {
  // "data:"
  return (
    text.charCodeAt(at) === 100 &&
    text.charCodeAt(at + 1) === 97 &&
    text.charCodeAt(at + 2) === 116 &&
    text.charCodeAt(at + 3) === 97 &&
    text.charCodeAt(at + 4) === COLON
  );
}

function isEventField(text: string, at: number): boolean {
  // "event:"
  return (
    text.charCodeAt(at) === 101 &&
    text.charCodeAt(at + 1) === 118 &&
    text.charCodeAt(at + 2) === 101 &&
    text.charCodeAt(at + 3) === 110 &&
    text.charCodeAt(at + 4) === 116 &&
    text.charCodeAt(at + 5) === COLON
  );
}

function isAsciiDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function message(id: string | undefined, event: string | undefined, data: string): FastSseMessage {
  return { id, event, data };
}

/**
 * Creates a Server-Sent Events parser following the WHATWG event-stream rules: CR, LF and CRLF
 * line ends; `data`, `event`, `id` and `retry` fields; comment lines; one space after the colon
 * stripped; a leading U+FEFF dropped; several data lines joined by "\n"; a blank line dispatches
 * the event when it had a `data` line. Unknown fields are ignored, an `id` containing U+0000 too.
 *
 * Same shape and events as `eventsource-parser`'s `createParser({onEvent})` — `{feed, reset}`,
 * `{id, event, data}` — with less copying: the tail of a line cut by a chunk boundary is kept as
 * fragments and joined once with the head of the next chunk's first line, never with the whole
 * next chunk, and every line end is searched for once.
 */
export function createFastSseParser(callbacks: FastSseParserCallbacks = {}): FastSseParser {
  if (callbacks === null || typeof callbacks !== 'object') {
    throw new TypeError(`Expected an object of callbacks ({onEvent, onRetry, onComment}), got ${callbacks === null ? 'null' : typeof callbacks}`);
  }
  const onEvent = callbacks.onEvent;
  const onRetry = callbacks.onRetry;
  const onComment = callbacks.onComment;

  // The current line, when a chunk boundary cut it: its fragments (never holding a CR or LF).
  const pending: string[] = [];
  let atStart = true;
  // The previous chunk ended with a CR: a LF opening the next chunk belongs to it.
  let skipLeadingLf = false;
  let data = '';
  let hasData = false;
  let eventType: string | undefined;
  let id: string | undefined;

  function dispatch(): void {
    if (hasData) {
      const out = message(id, eventType === '' ? undefined : eventType, data);
      data = '';
      hasData = false;
      id = undefined;
      eventType = undefined;
      if (onEvent !== undefined) onEvent(out);
      return;
    }
    id = undefined;
    eventType = undefined;
  }

  function appendData(value: string): void {
    if (hasData) {
      data = `${data}\n${value}`;
    } else {
      data = value;
      hasData = true;
    }
  }

  /** Any line, `text[start, end)` without its line end. */
  function processLine(text: string, start: number, end: number): void {
    if (start === end) {
      dispatch();
      return;
    }
    if (text.charCodeAt(start) === COLON) {
      if (onComment !== undefined) {
        onComment(text.slice(start + 1 < end && text.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1, end));
      }
      return;
    }
    // A field name never holds a line end, so the search stops at the line's own end.
    let colon = start;
    while (colon < end && text.charCodeAt(colon) !== COLON) colon++;
    let valueStart = colon + 1;
    if (valueStart < end && text.charCodeAt(valueStart) === SPACE) valueStart++;
    const value = colon === end ? '' : text.slice(valueStart, end);
    switch (colon - start) {
      case 4:
        if (text.startsWith('data', start)) appendData(value);
        return;
      case 5:
        if (text.startsWith('event', start)) {
          eventType = value;
        } else if (text.startsWith('retry', start) && isAsciiDigits(value)) {
          if (onRetry !== undefined) onRetry(parseInt(value, 10));
        }
        return;
      case 2:
        if (text.startsWith('id', start) && value.indexOf('\0') === -1) id = value;
        return;
      default:
        return;
    }
  }

  /** The lines of `text` from `position` in a text without CR; returns where the unfinished line starts. */
  function processLfLines(text: string, position: number): number {
    let start = position;
    let lf = text.indexOf('\n', start);
    while (lf !== -1) {
      if (lf === start) {
        dispatch();
      } else if (isDataField(text, start)) {
        const valueStart = text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5;
        const value = text.slice(valueStart, lf);
        if (!hasData && text.charCodeAt(lf + 1) === LF) {
          // The common frame: one data line and its blank line, dispatched without buffering.
          const out = message(id, eventType === '' ? undefined : eventType, value);
          id = undefined;
          eventType = undefined;
          start = lf + 2;
          if (onEvent !== undefined) onEvent(out);
          lf = text.indexOf('\n', start);
          continue;
        }
        appendData(value);
      } else if (isEventField(text, start)) {
        eventType = text.slice(text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, lf);
      } else {
        processLine(text, start, lf);
      }
      start = lf + 1;
      lf = text.indexOf('\n', start);
    }
    return start;
  }

  /** The lines of `text` from `position`, any line ends; returns where the unfinished line starts. */
  function processAnyLines(text: string, position: number): number {
    let start = position;
    let cr = text.indexOf('\r', start);
    let lf = text.indexOf('\n', start);
    for (;;) {
      // Each index is searched again only once the scan has passed it, so every CR and LF is found once.
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
      if (end === -1) return start;
      processLine(text, start, end);
      start = end + 1;
      if (end === cr) {
        if (start === text.length) {
          skipLeadingLf = true;
          return start;
        }
        if (text.charCodeAt(start) === LF) start++;
      }
    }
  }

  function lineEnd(text: string, from: number): number {
    const lf = text.indexOf('\n', from);
    const searchEnd = lf === -1 ? text.length : lf;
    // Look for a CR only before the first LF.
    for (let i = from; i < searchEnd; i++) if (text.charCodeAt(i) === CR) return i;
    return lf;
  }

  function feed(chunk: string): void {
    if (typeof chunk !== 'string') {
      throw new TypeError(`Expected a string chunk, got ${chunk === null ? 'null' : typeof chunk}`);
    }
    if (chunk.length === 0) return;
    let position = 0;
    if (atStart) {
      atStart = false;
      if (chunk.charCodeAt(0) === BOM) position = 1;
    }
    if (skipLeadingLf) {
      skipLeadingLf = false;
      if (chunk.charCodeAt(position) === LF) position++;
    }
    if (pending.length > 0) {
      const end = lineEnd(chunk, position);
      if (end === -1) {
        pending.push(position === 0 ? chunk : chunk.slice(position));
        return;
      }
      pending.push(chunk.slice(position, end));
      const line = pending.join('');
      pending.length = 0;
      processLine(line, 0, line.length);
      position = end + 1;
      if (chunk.charCodeAt(end) === CR) {
        if (position === chunk.length) {
          skipLeadingLf = true;
          return;
        }
        if (chunk.charCodeAt(position) === LF) position++;
      }
    }
    const rest = chunk.indexOf('\r', position) === -1 ? processLfLines(chunk, position) : processAnyLines(chunk, position);
    if (rest < chunk.length) pending.push(rest === 0 ? chunk : chunk.slice(rest));
  }

  return {
    feed,
    reset(options = {}) {
      if (options.consume === true && pending.length > 0) {
        const line = pending.join('');
        pending.length = 0;
        processLine(line, 0, line.length);
      }
      pending.length = 0;
      atStart = true;
      skipLeadingLf = false;
      data = '';
      hasData = false;
      eventType = undefined;
      id = undefined;
    },
    hasPendingInput() {
      return pending.length > 0 || hasData || eventType !== undefined || id !== undefined;
    },
    pendingLine() {
      if (pending.length > 1) {
        const line = pending.join('');
        pending.length = 1;
        pending[0] = line;
      }
      return pending.length === 0 ? '' : pending[0];
    },
  };
}
