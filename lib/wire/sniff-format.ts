import {
  classifySseData,
  classifySseEvent,
  decided,
  expectedText,
  formatError,
  jsonDocumentVerdict,
  jsonLineVerdict,
  QUOTED,
  tooLarge,
  UNDECIDED,
  type SniffPlan,
  type SniffResult,
} from './sniff-verdicts';
import { SniffLine } from './sniff-line';
import { StreamError } from '../handler/stream-error';

export type { SniffPlan, SniffResult } from './sniff-verdicts';

/** How much text `sniffFormat` may need before it gives up (1 MiB). */
export const SNIFF_LIMIT = 1 << 20;

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const COLON = 0x3a;
const WHITESPACE = /\s/;

/** `/\s/` for one UTF-16 code unit, without a regular expression for ASCII. */
function isSpace(code: number): boolean {
  if (code <= SPACE) return code === SPACE || (code >= 0x09 && code <= 0x0d);
  return code >= 0xa0 && WHITESPACE.test(String.fromCharCode(code));
}

/** Where the sniffer is: before the first non-space character, or in the body it starts. */
type Phase = 'leading' | 'html' | 'json-line' | 'json-document' | 'sse';

/**
 * Recognises the wire format of a body as its text arrives (see `sniffFormat` for what it decides
 * and how it fails). It resumes where the previous text left off: each character is examined
 * once and each line joined once, so the work is linear in the text however it is split (one
 * character per piece, a flood of keep-alive comments before the first event, lone-CR line ends).
 * It holds the text it was fed (at most `SNIFF_LIMIT` characters and the piece that passed it)
 * until `takeText`. With `maxFrameBytes`, a first SSE event or NDJSON line longer than that fails
 * `malformed`, as the frame decoders would.
 */
export class FormatSniffer {
  private readonly held: string[] = [];
  private total = 0;
  /** Characters judged so far: only the first `SNIFF_LIMIT` are. */
  private judged = 0;
  private result: SniffResult | null = null;
  private phase: Phase = 'leading';
  /** The first `QUOTED` characters from the first non-space one (what the limit error quotes). */
  private head = '';
  /** The line being read. */
  private readonly line = new SniffLine();
  /** The last text ended with a CR: an LF opening the next one completes that CRLF. */
  private skipLf = false;
  /** SSE: the data lines of the first event so far, and the characters of its lines. */
  private data: string[] = [];
  private frameSize = 0;

  constructor(
    private readonly plan: SniffPlan,
    private readonly maxFrameBytes: number = Infinity,
  ) {}

  /** Examines the next text; the verdict so far. Once decided (format or failure), it stays so. */
  feed(text: string): SniffResult {
    if (this.result !== null) return this.result;
    if (text === '') return UNDECIDED;
    this.held.push(text);
    this.total += text.length;
    const room = SNIFF_LIMIT - this.judged;
    let result = UNDECIDED;
    if (room > 0) {
      const piece = text.length <= room ? text : text.slice(0, room);
      this.judged += piece.length;
      result = this.judge(piece);
    }
    // A decision that needs more than the limit fails the same way however the body was split.
    if (result.type === 'undecided' && this.total > SNIFF_LIMIT) {
      result = formatError(this.plan, `no recognisable frame in the first ${SNIFF_LIMIT} characters`, this.head);
    }
    return this.settle(result);
  }

  /** The body ended: the final verdict (never `undecided`). */
  end(): SniffResult {
    return this.result ?? this.settle(this.finish());
  }

  /** Everything fed so far, joined once; the sniffer lets go of it. */
  takeText(): string {
    const text = this.held.length === 1 ? (this.held[0] as string) : this.held.join('');
    this.held.length = 0;
    return text;
  }

  private settle(result: SniffResult): SniffResult {
    if (result.type !== 'undecided') {
      this.result = result;
      this.line.clear();
      this.data = [];
    }
    return result;
  }

  private judge(text: string): SniffResult {
    let at = 0;
    if (this.phase === 'leading') {
      while (at < text.length && isSpace(text.charCodeAt(at))) at++;
      if (at === text.length) return UNDECIDED;
      const first = text[at];
      this.phase = first === '<' ? 'html' : first === '{' || first === '[' ? 'json-line' : 'sse';
    }
    if (this.head.length < QUOTED) this.head += text.slice(at, at + QUOTED - this.head.length);
    switch (this.phase) {
      case 'html':
        return this.html(text, at);
      case 'json-line':
        return this.jsonLine(text, at);
      case 'sse':
        return this.sse(text, at);
      default:
        // A JSON document is judged whole, at the end.
        return UNDECIDED;
    }
  }

  private finish(): SniffResult {
    switch (this.phase) {
      case 'leading':
        return this.plan.expected === null
          ? { type: 'failed', error: new StreamError('truncated', `The stream ended before its first event: the body was empty (expected ${expectedText(this.plan)})`) }
          : decided(this.plan.expected.format);
      case 'html':
        return formatError(this.plan, 'an HTML document', this.line.head);
      case 'json-line':
        return this.jsonFirstLine(this.line.take(), true);
      case 'json-document':
        return this.jsonDocument();
      case 'sse': {
        const result = this.line.length === 0 ? null : this.sseLine(this.line.take());
        if (result !== null) return result;
        if (this.data.length > 0) return classifySseData(this.plan, this.data.join('\n'));
        if (this.plan.expected !== null) return decided(this.plan.expected.format);
        return { type: 'failed', error: new StreamError('truncated', `The stream ended before its first event (expected ${expectedText(this.plan)})`) };
      }
      default:
        return assertNever(this.phase);
    }
  }

  /** The body starts with `<`: an HTML page, quoted by its first line once that is complete or long enough. */
  private html(text: string, at: number): SniffResult {
    const lf = text.indexOf('\n', at);
    const cr = text.indexOf('\r', at);
    const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    this.line.extend(text, at, end === -1 ? text.length : end);
    return end !== -1 || this.line.length >= QUOTED ? formatError(this.plan, 'an HTML document', this.line.head) : UNDECIDED;
  }

  /** The body starts with `{` or `[`: NDJSON, or a (possibly pretty-printed) JSON document such as an error body. */
  private jsonLine(text: string, at: number): SniffResult {
    const lf = text.indexOf('\n', at);
    this.line.extend(text, at, lf === -1 ? text.length : lf);
    if (lf === -1) {
      // An Ollama first line longer than the limit is still Ollama (only error lines are read whole).
      const expected = this.plan.expected;
      if (expected !== null && expected.framing === 'ndjson' && this.judged === SNIFF_LIMIT) return decided(expected.format);
      return this.ndjsonLineLength() > this.maxFrameBytes ? tooLarge('An NDJSON line', this.maxFrameBytes) : UNDECIDED;
    }
    if (this.ndjsonLineLength() > this.maxFrameBytes) return tooLarge('An NDJSON line', this.maxFrameBytes);
    this.phase = 'json-document';
    return this.jsonFirstLine(this.line.take(), false);
  }

  /** The characters of the NDJSON line so far that count against the limit: a CR before its LF (or at the end) never does. */
  private ndjsonLineLength(): number {
    return this.line.endsWithCr ? this.line.length - 1 : this.line.length;
  }

  private jsonFirstLine(line: string, ended: boolean): SniffResult {
    // Not one JSON value per line: a pretty-printed document, readable once it has all arrived.
    return jsonLineVerdict(line, this.plan) ?? (ended ? this.jsonDocument() : UNDECIDED);
  }

  /** The whole body (it ended within the limit) as one JSON document. */
  private jsonDocument(): SniffResult {
    const text = this.takeText();
    this.held.push(text);
    return jsonDocumentVerdict(text, this.plan);
  }

  /** The body starts like text: Server-Sent Events, or something else (a plain-text error). */
  private sse(text: string, at: number): SniffResult {
    const length = text.length;
    if (this.skipLf) {
      this.skipLf = false;
      if (text.charCodeAt(at) === LF) at++;
    }
    // The next LF and CR, each searched for again only once passed: one scan of the text.
    let lf = text.indexOf('\n', at);
    let cr = text.indexOf('\r', at);
    for (;;) {
      let end: number;
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        if (lf === -1) break;
        end = lf;
        next = lf + 1;
      } else {
        end = cr;
        next = cr + 1;
        if (next === length) this.skipLf = true;
        else if (text.charCodeAt(next) === LF) next++;
      }
      this.line.extend(text, at, end);
      const result = this.sseLine(this.line.take());
      if (result !== null) return result;
      at = next;
      if (lf !== -1 && lf < at) lf = text.indexOf('\n', at);
      if (cr !== -1 && cr < at) cr = text.indexOf('\r', at);
    }
    this.line.extend(text, at, length);
    if (this.line.length === 0) return UNDECIDED;
    // A line still arriving can already be judged by its field name (what comes before the colon).
    const partial = this.sseLineStart();
    if (partial.type !== 'undecided') return partial;
    return this.frameSize + this.line.length > this.maxFrameBytes ? tooLarge('An SSE event', this.maxFrameBytes) : UNDECIDED;
  }

  /** A complete SSE line: the verdict, or null to read on. */
  private sseLine(line: string): SniffResult | null {
    if (line === '') {
      if (this.data.length > 0) return classifySseData(this.plan, this.data.join('\n'));
      this.frameSize = 0;
      return null;
    }
    const result = this.sseField(line);
    if (result !== null) return result;
    this.frameSize += line.length;
    return this.frameSize > this.maxFrameBytes ? tooLarge('An SSE event', this.maxFrameBytes) : null;
  }

  private sseField(line: string): SniffResult | null {
    if (line.charCodeAt(0) === COLON /* comment */) return null;
    const plan = this.plan;
    const expected = plan.expected;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field === 'id' || field === 'retry') return null;
    const quote = line.slice(0, QUOTED);
    if (field !== 'event' && field !== 'data') return formatError(plan, this.notSse(), quote);
    if (expected !== null && expected.framing !== 'sse') return formatError(plan, 'Server-Sent Events', quote);
    if (expected !== null) return decided(expected.format);
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    if (field === 'data') {
      this.data.push(value);
      return null;
    }
    const known = classifySseEvent(plan, value);
    if (known !== null) return known;
    this.data = [];
    return null;
  }

  /**
   * The verdict on the line still arriving, from its first `QUOTED` characters: a field name
   * decides an explicit format; a line quoted only once that long, so the message does not depend
   * on the split.
   */
  private sseLineStart(): SniffResult {
    const head = this.line.head;
    if (head.charCodeAt(0) === COLON) return UNDECIDED;
    const plan = this.plan;
    const expected = plan.expected;
    const quote = this.line.length >= QUOTED ? head : null;
    const colon = head.indexOf(':');
    if (colon === -1) return quote === null ? UNDECIDED : formatError(plan, this.notSse(), quote);
    const field = head.slice(0, colon);
    if (field === 'id' || field === 'retry') return UNDECIDED;
    if (field !== 'event' && field !== 'data') return quote === null ? UNDECIDED : formatError(plan, this.notSse(), quote);
    if (expected !== null && expected.framing !== 'sse') return quote === null ? UNDECIDED : formatError(plan, 'Server-Sent Events', quote);
    return expected === null ? UNDECIDED : decided(expected.format);
  }

  private notSse(): string {
    return this.plan.expected?.framing === 'ndjson' ? 'text that is not NDJSON' : 'text that is not Server-Sent Events';
  }
}

function assertNever(value: never): never {
  throw new TypeError(`Expected a sniffing phase, got ${String(value)}`);
}

/**
 * Looks at the first text of a body and says which format of `plan` it is — or, when the plan
 * names one format, whether the body is that format's framing at all. Returns `undecided` until it
 * has seen enough (the first event for SSE, the first line for NDJSON, the whole body for a JSON
 * document; `ended` says the body is complete). SSE formats are told apart by event name or by the
 * first event's data, NDJSON formats by the first line, each as its `SniffRule` says. Only the
 * first `SNIFF_LIMIT` characters are judged: a body undecided by then fails.
 *
 * A body that is none of them fails with a `StreamError`: kind `provider` (the provider's message,
 * code and body) for a JSON error body such as Gemini's pretty-printed 404, kind `format` naming what
 * was expected and what was found (an HTML page, plain text, JSON of no known shape), kind
 * `truncated` for a body that ended before any event (only when no format is named). For text
 * arriving piece by piece, `FormatSniffer` gives the same verdicts in linear time.
 */
export function sniffText(body: string, ended: boolean, plan: SniffPlan): SniffResult {
  const sniffer = new FormatSniffer(plan);
  const result = sniffer.feed(body);
  return result.type === 'undecided' && ended ? sniffer.end() : result;
}
