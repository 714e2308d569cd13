import { HandlerCallbackError } from '../handler/handler-callback-error';
import type { ChatResponse, CompleteToolCall, PartialResponse, PartialThinking, PartialToolCall, StreamingChatResponseHandler } from '../handler/types';
import type { OpaquePayload } from '../parts/types';
import { stringifyJson } from '../wire/stringify-json';
import type { WriteText } from './json-view';
import { describeResponse } from './describe-response';
import { escapeControl, escapeControlLine } from './escape-control';
import { oneLine, truncate } from './one-line';
import type { RawView } from './parse-args';
import { findRefusal } from './refusal';
import type { TextStyle } from './text-style';

/** Options of a `HumanView`. */
export interface HumanViewOptions {
  /** Writes the view (standard output). */
  readonly write: WriteText;
  /** Writes error lines (standard error). */
  readonly writeError: WriteText;
  readonly style: TextStyle;
  /** Longest line for raw events and summaries, in characters. */
  readonly width: number;
  /** How raw events are shown: hidden and counted, one line cut to the width (the default), or whole. */
  readonly raw?: RawView;
  /**
   * Text to add to a stream error's line (e.g. which format the bytes look like), or `''`.
   * Called once, when the error arrives; it must return text that is safe on a terminal.
   */
  readonly errorHint?: (error: Error) => string;
}

/** What is being streamed on the current output line. */
type Section = { readonly kind: 'thinking' } | { readonly kind: 'text' } | { readonly kind: 'tool'; readonly index: number };

/**
 * The human view of `partstream replay`: writes each callback as it fires — reasoning set apart
 * by the style, answer text as it arrives, tool-call arguments as they grow, each raw event as
 * one short line (or whole, or only counted: `raw`) — then a summary of the final message, a
 * refusal's text included. Stream errors go to `writeError` as one line. Everything that came from the stream is shown through `escapeControl` /
 * `escapeControlLine`, so it cannot drive the terminal; only the style's own codes are written raw.
 */
export class HumanView implements StreamingChatResponseHandler {
  private section: Section | null = null;
  /** True while the cursor is not at the start of a line. */
  private midLine = false;
  /** Raw events not shown (`raw: 'none'`), for the summary. */
  private hiddenRaw = 0;
  /** The data of the last SSE `message_delta` event: where an Anthropic refusal's reason lies. */
  private lastMessageDelta: string | null = null;

  constructor(private readonly options: HumanViewOptions) {}

  onPartialThinking(partial: PartialThinking): void {
    this.enter({ kind: 'thinking' }, 'thinking');
    if (partial.text !== '') this.put(this.options.style.thinking(escapeControl(partial.text)));
    if (partial.payload !== undefined) this.put(this.options.style.dim(payloadNote(partial.payload)));
  }

  onPartialResponse(partial: PartialResponse): void {
    this.enter({ kind: 'text' }, 'text');
    if (partial.text !== '') this.put(escapeControl(partial.text));
    if (partial.payload !== undefined) this.put(this.options.style.dim(payloadNote(partial.payload)));
  }

  onPartialToolCall(partial: PartialToolCall): void {
    const id = partial.id === null ? '' : ` ${partial.id}`;
    this.enter({ kind: 'tool', index: partial.index }, escapeControlLine(`tool call #${partial.index} ${partial.name}${id}`));
    this.put(escapeControl(partial.partialArguments));
  }

  onCompleteToolCall(complete: CompleteToolCall): void {
    const request = complete.toolExecutionRequest;
    const id = request.id === null ? '' : ` ${request.id}`;
    // Only the start of the arguments fits on the line; they can be megabytes long.
    const line = oneLine(`tool call #${complete.index} complete: ${request.name}${id} ${request.arguments.slice(0, this.options.width * 2)}`);
    this.lineApart(this.options.style.label(truncate(line, this.options.width)));
  }

  onUnmappedRawEvent(rawEvent: unknown): void {
    const frame = sseFrame(rawEvent);
    // Kept by reference, parsed only if the response turns out to be filtered.
    if (frame !== null && frame.event === 'message_delta') this.lastMessageDelta = frame.data;
    const { raw = 'short', width, style } = this.options;
    switch (raw) {
      case 'none':
        this.hiddenRaw++;
        return;
      case 'short':
        this.lineApart(style.dim(truncate(`raw ${describeRaw(frame, rawEvent, width)}`, width)));
        return;
      case 'full':
        this.lineApart(style.dim(`raw ${describeRawWhole(frame, rawEvent)}`));
        return;
      default:
        assertNever(raw);
    }
  }

  onCompleteResponse(response: ChatResponse): void {
    this.endLine();
    this.section = null;
    this.summary('final message', response);
  }

  onError(error: Error): void {
    this.endLine();
    this.section = null;
    const handlerError = HandlerCallbackError.isInstance(error);
    const what = handlerError ? 'handler error' : 'stream error';
    const hint = handlerError || this.options.errorHint === undefined ? '' : this.options.errorHint(error);
    this.options.writeError(`${this.options.style.error(`partstream: ${what}: ${oneLine(error.message)}${hint}`)}\n`);
  }

  /** Writes a summary of what was received before a stream failed or was cancelled. */
  partial(response: ChatResponse, why: string): void {
    this.endLine();
    this.summary(`received before the stream ${why}`, response);
  }

  /** After a stream that left nothing to summarise: says how many raw events were not shown, if any. */
  hiddenRawNote(): void {
    this.endLine();
    const note = this.hiddenRawLine();
    if (note !== null) this.options.write(`${note}\n`);
  }

  private summary(title: string, response: ChatResponse): void {
    const { style, width } = this.options;
    const lines = describeResponse(response, width, findRefusal(response, this.lastMessageDelta));
    const note = this.hiddenRawLine();
    if (note !== null) lines.push(note);
    this.options.write(`\n${style.label(`── ${title} ──`)}\n${lines.join('\n')}\n`);
  }

  private hiddenRawLine(): string | null {
    const count = this.hiddenRaw;
    if (count === 0) return null;
    return this.options.style.dim(`${count} raw event${count === 1 ? '' : 's'} not shown (--raw short or --raw full shows them)`);
  }

  /** Starts a section on a fresh line unless the same section is still being written. */
  private enter(section: Section, label: string): void {
    const current = this.section;
    if (current !== null && current.kind === section.kind && (section.kind !== 'tool' || (current as { index: number }).index === section.index)) {
      return;
    }
    this.endLine();
    this.section = section;
    this.options.write(this.options.style.label(`${label}: `));
    this.midLine = true;
  }

  private put(text: string): void {
    this.options.write(text);
    this.midLine = !text.endsWith('\n');
  }

  /** Writes a whole line between streamed sections; the next delta starts a labelled line again. */
  private lineApart(line: string): void {
    this.endLine();
    this.section = null;
    this.options.write(`${line}\n`);
  }

  private endLine(): void {
    if (this.midLine) this.options.write('\n');
    this.midLine = false;
  }
}

function payloadNote(payload: OpaquePayload): string {
  return escapeControlLine(` [${payload.provider} ${payload.kind}, ${payload.data.length} chars]`);
}

/** An SSE frame as adapters surface it raw, `{event, data}`. */
interface SseFrame {
  readonly event: string | null;
  readonly data: string;
}

function sseFrame(rawEvent: unknown): SseFrame | null {
  if (typeof rawEvent !== 'object' || rawEvent === null || !('data' in rawEvent) || typeof rawEvent.data !== 'string') return null;
  const event = 'event' in rawEvent && typeof rawEvent.event === 'string' ? rawEvent.event : null;
  return { event, data: rawEvent.data };
}

/**
 * `event-name data` for an SSE frame, the JSON text for anything else, on one line with control
 * characters escaped; only the first `width` characters or so are looked at (a frame can be tens
 * of kilobytes).
 */
function describeRaw(frame: SseFrame | null, rawEvent: unknown, width: number): string {
  if (frame !== null) return oneLine(`${frame.event === null ? '' : `${frame.event} `}${frame.data.slice(0, width * 2)}`);
  return oneLine(safeJson(rawEvent).slice(0, width * 2));
}

/**
 * The whole raw event on one line: `event-name data` for an SSE frame, the JSON text for anything
 * else, every character as it came except controls, line breaks and bidi characters, shown
 * escaped (`escapeControlLine`) so that the event can neither drive the terminal nor fake lines.
 */
function describeRawWhole(frame: SseFrame | null, rawEvent: unknown): string {
  if (frame !== null) return escapeControlLine(`${frame.event === null ? '' : `${frame.event} `}${frame.data}`);
  return escapeControlLine(safeJson(rawEvent));
}

function safeJson(value: unknown): string {
  try {
    return stringifyJson(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function assertNever(value: never): never {
  throw new TypeError(`Expected a known raw view, got ${String(value)}`);
}
