// The shapes of a Bedrock ConverseStream's event payloads (one JSON object per `event` message,
// named by its `:event-type`), as far as the mapper reads them: every field optional and
// `unknown`, read through the `wire/read-json` helpers. Every payload also carries a padding
// field `p` (random letters), which means nothing.

/** `contentBlockStart.start`: a union, one member set (`toolUse`, `toolResult`, `image` …). */
export interface BedrockBlockStart {
  /** `{toolUseId, name, type?}`: a client tool call, or a server tool's use when `type` is `server_tool_use`. */
  readonly toolUse?: unknown;
}

/** `contentBlockStart.start.toolUse`. */
export interface BedrockToolUseStart {
  readonly toolUseId?: unknown;
  readonly name?: unknown;
  /** Absent or `tool_use` for a client tool; `server_tool_use` for one the server runs (Nova's code interpreter). */
  readonly type?: unknown;
}

/** `contentBlockDelta.delta`: a union, one member set. */
export interface BedrockBlockDelta {
  /** A text block's next text. */
  readonly text?: unknown;
  /** `{input}`: the next piece of a tool call's input JSON text. */
  readonly toolUse?: unknown;
  /** `{text}` | `{signature}` | `{redactedContent}` (base64). */
  readonly reasoningContent?: unknown;
  /** One citation of the text block (`title`, `source`, `sourceContent`, `location`). */
  readonly citation?: unknown;
}

/** `contentBlockDelta.delta.reasoningContent`. */
export interface BedrockReasoningDelta {
  readonly text?: unknown;
  readonly signature?: unknown;
  readonly redactedContent?: unknown;
}

/** The payload of `contentBlockStart`, `contentBlockDelta` and `contentBlockStop`. */
export interface BedrockBlockEvent {
  readonly contentBlockIndex?: unknown;
  /** `contentBlockStart`: a `BedrockBlockStart`. */
  readonly start?: unknown;
  /** `contentBlockDelta`: a `BedrockBlockDelta`. */
  readonly delta?: unknown;
}

/** The payload of `messageStop`. */
export interface BedrockMessageStop {
  readonly stopReason?: unknown;
  readonly additionalModelResponseFields?: unknown;
}

/** The payload of `metadata` (the last event). */
export interface BedrockMetadataEvent {
  /** `{inputTokens, outputTokens, totalTokens, cacheReadInputTokens, cacheWriteInputTokens}`. */
  readonly usage?: unknown;
  /** `{latencyMs}`. */
  readonly metrics?: unknown;
}

/** The payload of an `exception` message (`throttlingException` …). */
export interface BedrockException {
  readonly message?: unknown;
}
