// The Converse request fields `toBedrockMessages` writes, as the Bedrock Converse API documents
// them. `B` is how binary fields (image and document bytes, redacted reasoning) are held: base64
// text in the HTTP API's JSON (the default, for `streamBedrockConverse`), a `Uint8Array` for the
// AWS SDK (`@aws-sdk/client-bedrock-runtime`), whose types these are assignable to.

/** The image formats Converse takes. */
export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
/** The document formats Converse takes. */
export type BedrockDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

/** A JSON value, as a tool's `input` holds it. */
export type BedrockDocument = null | boolean | number | string | BedrockDocument[] | { [key: string]: BedrockDocument };

/** `{ text }`. */
export interface BedrockTextBlock {
  readonly text: string;
}

/** `{ image: { format, source: { bytes } } }`. */
export interface BedrockImageBlock<B = string> {
  readonly image: { readonly format: BedrockImageFormat; readonly source: { readonly bytes: B } };
}

/** `{ document: { format, name, source: { bytes } } }`. */
export interface BedrockDocumentBlock<B = string> {
  readonly document: { readonly format: BedrockDocumentFormat; readonly name: string; readonly source: { readonly bytes: B } };
}

/** `{ toolUse: { toolUseId, name, input } }`: a tool call of an assistant turn (`type: server_tool_use` for one the server ran). */
export interface BedrockToolUseBlock {
  readonly toolUse: { readonly toolUseId: string; readonly name: string; readonly input: { [key: string]: BedrockDocument }; readonly type?: 'server_tool_use' | undefined };
}

/** A `toolResult`'s content item. */
export type BedrockToolResultContent<B = string> = BedrockTextBlock | BedrockImageBlock<B> | BedrockDocumentBlock<B>;

/** `{ toolResult: { toolUseId, content, status? } }`: a tool's result, in a user turn. */
export interface BedrockToolResultBlock<B = string> {
  readonly toolResult: { readonly toolUseId: string; readonly content: Array<BedrockToolResultContent<B>>; readonly status?: 'success' | 'error' | undefined; readonly type?: string | undefined };
}

/** `{ reasoningContent: { reasoningText: { text, signature } } }` or `{ reasoningContent: { redactedContent } }`. */
export type BedrockReasoningBlock<B = string> =
  { readonly reasoningContent: { readonly reasoningText: { readonly text: string; readonly signature?: string | undefined } } } | { readonly reasoningContent: { readonly redactedContent: B } };

/** Where a citation points: a character, chunk or page range of a document, a search result's range, a web page. */
export type BedrockCitationLocation =
  | { readonly documentChar: { readonly documentIndex?: number | undefined; readonly start?: number | undefined; readonly end?: number | undefined } }
  | { readonly documentChunk: { readonly documentIndex?: number | undefined; readonly start?: number | undefined; readonly end?: number | undefined } }
  | { readonly documentPage: { readonly documentIndex?: number | undefined; readonly start?: number | undefined; readonly end?: number | undefined } }
  | { readonly searchResultLocation: { readonly searchResultIndex?: number | undefined; readonly start?: number | undefined; readonly end?: number | undefined } }
  | { readonly web: { readonly url?: string | undefined; readonly domain?: string | undefined } };

/** One citation, as a `citation` delta carried it. */
export interface BedrockCitation {
  readonly title?: string | undefined;
  readonly source?: string | undefined;
  readonly sourceContent?: BedrockTextBlock[] | undefined;
  readonly location?: BedrockCitationLocation | undefined;
}

/** `{ citationsContent: { content: [{ text }], citations } }`: text with the citations it was generated with. */
export interface BedrockCitationsBlock {
  readonly citationsContent: { readonly content: BedrockTextBlock[]; readonly citations: BedrockCitation[] };
}

/**
 * A block Bedrock sent that partstream keeps as it came: a server tool's use and its result (typed
 * here), or a block kind newer than partstream (sent back as it came all the same).
 */
export type BedrockPassthroughBlock<B = string> = BedrockToolUseBlock | BedrockToolResultBlock<B> | BedrockImageBlock<B>;

/** A block of a user turn. */
export type BedrockUserBlock<B = string> = BedrockTextBlock | BedrockImageBlock<B> | BedrockDocumentBlock<B> | BedrockToolResultBlock<B>;
/** A block of an assistant turn. */
export type BedrockAssistantBlock<B = string> = BedrockTextBlock | BedrockToolUseBlock | BedrockReasoningBlock<B> | BedrockCitationsBlock | BedrockPassthroughBlock<B>;

/** One message of `messages`. */
export type BedrockMessageParam<B = string> =
  { readonly role: 'user'; readonly content: Array<BedrockUserBlock<B>> } | { readonly role: 'assistant'; readonly content: Array<BedrockAssistantBlock<B>> };

/** What `toBedrockMessages` returns: the `system` blocks (when there are system messages) and the `messages`. */
export interface BedrockConverseInput<B = string> {
  readonly system?: BedrockTextBlock[] | undefined;
  readonly messages: Array<BedrockMessageParam<B>>;
}
