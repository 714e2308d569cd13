import type { JsonObject } from './read-json';

/** How a body frames its events: Server-Sent Events, JSON lines, or AWS's binary event stream. */
export type BodyFraming = 'sse' | 'ndjson' | 'aws-eventstream';

/**
 * How `format: 'auto'` recognises one format from the first event of a body. Every predicate
 * looks at one event only and must be cheap; a format without a rule is recognised only when
 * named. Rules of different formats must not both accept the same first event.
 */
export interface SniffRule {
  /** An SSE `event:` name that only this format sends decides the body at once (`message_start`). */
  readonly sseEvent?: ((name: string) => boolean) | undefined;
  /** An SSE `data:` value, not JSON, that only this format sends (`[DONE]`). */
  readonly sseSentinel?: string | undefined;
  /** True when the JSON object of a first SSE event's data is this format's. */
  readonly sseData?: ((data: JsonObject) => boolean) | undefined;
  /** True when the JSON object on a body's first line is this format's (an NDJSON stream). */
  readonly jsonLine?: ((line: JsonObject) => boolean) | undefined;
  /**
   * A binary format: whether a body's first bytes (possibly fewer than a prelude) begin one of its
   * frames — `yes`, `no`, or `more` while too few bytes have arrived to tell.
   */
  readonly binaryPrelude?: ((bytes: Uint8Array) => 'yes' | 'no' | 'more') | undefined;
}

/** What the sniffer knows of one format: its name, framing, how failures name it, and its rule. */
export interface SniffCandidate {
  /** The format's name, as `format` takes it. */
  readonly format: string;
  /** The provider's name as people say it ("Anthropic Messages"), for messages. */
  readonly name: string;
  readonly framing: BodyFraming;
  /** What a failure says was expected: "an Anthropic Messages stream (Server-Sent Events)". */
  readonly expected: string;
  /** How `auto` recognises it; null: only when named. */
  readonly sniff: SniffRule | null;
}
