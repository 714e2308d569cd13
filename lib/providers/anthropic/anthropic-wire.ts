// The shapes of an Anthropic Messages stream (`event: <type>` + `data: <json>` frames, ending
// with `message_stop`), as far as the mapper reads them. Fields are optional and re-checked where
// they are read: gateways and newer API versions add, omit or null fields.

/** The token counts of `message_start.message.usage` and `message_delta.usage`. */
export interface AnthropicUsage {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
}

/** The `content_block` of a `content_block_start` event, by `type`. */
export interface AnthropicContentBlock {
  readonly type?: string;
  /** `text` blocks. */
  readonly text?: string;
  /** `thinking` blocks. */
  readonly thinking?: string;
  readonly signature?: string;
  /** `redacted_thinking` blocks: the encrypted reasoning. */
  readonly data?: string;
  /** `tool_use` blocks. */
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
}

/** The `delta` of a `content_block_delta` event, by `type`. */
export interface AnthropicBlockDelta {
  readonly type?: string;
  /** `text_delta`. */
  readonly text?: string;
  /** `thinking_delta`. */
  readonly thinking?: string;
  /** `signature_delta`. */
  readonly signature?: string;
  /** `input_json_delta`. */
  readonly partial_json?: string;
}

/** One Messages stream event (`data` of a frame); `type` names it. */
export interface AnthropicStreamEvent {
  readonly type?: string;
  /** `message_start`. */
  readonly message?: {
    readonly id?: string;
    readonly model?: string;
    readonly usage?: AnthropicUsage;
  };
  /** `content_block_start` / `content_block_delta` / `content_block_stop`. */
  readonly index?: number;
  readonly content_block?: AnthropicContentBlock;
  /** `content_block_delta` (a block delta) or `message_delta` (`stop_reason`, …). */
  readonly delta?: AnthropicBlockDelta & { readonly stop_reason?: string | null };
  /** `message_delta`. */
  readonly usage?: AnthropicUsage;
  /** `error`. */
  readonly error?: { readonly type?: string; readonly message?: string };
}
