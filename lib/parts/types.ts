/**
 * Provider-owned data that must be replayed verbatim to the same provider, such as a thinking
 * signature (`anthropic`/`signature`) or encrypted reasoning (`openai`/`encrypted_content`).
 */
export interface OpaquePayload {
  readonly provider: string;
  readonly kind: string;
  readonly data: string;
}

/** Free-form, serialisation-safe string attributes of a part (e.g. the streaming part index). */
export type PartAttributes = Readonly<Record<string, string>>;

/** What every part carries besides its own fields. */
interface PartBase {
  /** Provider-owned data to replay verbatim, or null. */
  readonly payload: OpaquePayload | null;
  /** Never null; frozen. */
  readonly attributes: PartAttributes;
}

/** Answer text (or a text delta while streaming). */
export interface TextPart extends PartBase {
  readonly type: 'text';
  readonly text: string;
}

/** Reasoning ("thinking") text and/or its summary. */
export interface ReasoningPart extends PartBase {
  readonly type: 'reasoning';
  readonly text: string | null;
  readonly summary: string | null;
}

/** The tool call a part describes; every field may be null while streaming. */
export interface ToolCall {
  readonly id: string | null;
  readonly type: string | null;
  readonly name: string | null;
  readonly arguments: string | null;
}

/** A tool call requested by the model (complete, or an argument delta while streaming). */
export interface ToolCallPart extends PartBase {
  readonly type: 'tool_call';
  readonly toolCall: ToolCall;
}

/** The result of a tool call, itself made of parts. */
export interface ToolResultPart extends PartBase {
  readonly type: 'tool_result';
  readonly id: string | null;
  readonly name: string | null;
  readonly content: readonly MessagePart[];
  readonly isError: boolean;
}

/** Media content: bytes, a base64/plain string, or a URL. */
export type Media =
  | { readonly id: string | null; readonly mimeType: string; readonly name: string | null; readonly dataKind: 'bytes'; readonly data: Uint8Array }
  | { readonly id: string | null; readonly mimeType: string; readonly name: string | null; readonly dataKind: 'string' | 'url'; readonly data: string };

/** An image, audio clip or other media item. */
export interface MediaPart extends PartBase {
  readonly type: 'media';
  readonly media: Media;
}

/** Anything partstream does not model, kept verbatim so nothing is lost. */
export interface UnknownPart extends PartBase {
  readonly type: 'unknown';
  readonly provider: string;
  readonly kind: string;
  readonly rawJson: string;
}

/** One element of the ordered content of a chat message; discriminated on `type`. */
export type MessagePart = TextPart | ReasoningPart | ToolCallPart | ToolResultPart | MediaPart | UnknownPart;

/** The `type` names of the six part kinds. */
export type MessagePartType = MessagePart['type'];

/** Options every part factory accepts. */
export interface PartOptions {
  readonly payload?: OpaquePayload | null | undefined;
  readonly attributes?: Record<string, string> | undefined;
}
