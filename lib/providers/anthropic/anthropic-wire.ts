// The shapes of an Anthropic Messages stream (`event: <type>` + `data: <json>` frames, ending
// with `message_stop`), as far as the mapper reads them: names for the fields, every one optional
// and `unknown` (gateways and newer API versions add, omit or null fields), read through the
// `wire/read-json` helpers — a nested object once `isJsonObject` said it is one.

/** The `content_block` of a `content_block_start` event, by `type`. */
export interface AnthropicContentBlock {
  readonly type?: unknown;
  /** `text` blocks. */
  readonly text?: unknown;
  /** `thinking` blocks. */
  readonly thinking?: unknown;
  readonly signature?: unknown;
  /** `redacted_thinking` blocks: the encrypted reasoning. */
  readonly data?: unknown;
  /** `tool_use` blocks. */
  readonly id?: unknown;
  readonly name?: unknown;
  readonly input?: unknown;
}

/** The `delta` of a `content_block_delta` event, by `type`, or of a `message_delta` event. */
export interface AnthropicDelta {
  readonly type?: unknown;
  /** `text_delta`. */
  readonly text?: unknown;
  /** `thinking_delta`. */
  readonly thinking?: unknown;
  /** `signature_delta`. */
  readonly signature?: unknown;
  /** `input_json_delta`. */
  readonly partial_json?: unknown;
  /** `message_delta`. */
  readonly stop_reason?: unknown;
}

/** The message of `message_start`. */
export interface AnthropicMessage {
  readonly id?: unknown;
  readonly model?: unknown;
  /** The token counts (`AnthropicUsageTracker` reads them). */
  readonly usage?: unknown;
}

/** One Messages stream event (`data` of a frame); `type` names it. */
export interface AnthropicStreamEvent {
  readonly type?: unknown;
  /** `message_start`: an `AnthropicMessage`. */
  readonly message?: unknown;
  /** `content_block_start` / `content_block_delta` / `content_block_stop`. */
  readonly index?: unknown;
  /** `content_block_start`: an `AnthropicContentBlock`. */
  readonly content_block?: unknown;
  /** `content_block_delta` or `message_delta`: an `AnthropicDelta`. */
  readonly delta?: unknown;
  /** `message_delta`. */
  readonly usage?: unknown;
  /** `error`: `{type, message}` (read by `providerErrorDetails`). */
  readonly error?: unknown;
}
