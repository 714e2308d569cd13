// The Anthropic Messages request shapes `toAnthropicMessages` builds, written from the API
// reference. Properties are readonly, arrays plain, so that a value of these types can be passed
// where Anthropic's SDK wants its `MessageParam` (checked by test/replay/sdk-types.typecheck.ts).

/** The image types the Messages API takes inline. */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** A citation of a text block, as the API returned it on the block. */
export type AnthropicCitationParam =
  | {
      readonly type: 'char_location';
      readonly cited_text: string;
      readonly document_index: number;
      readonly document_title: string | null;
      readonly start_char_index: number;
      readonly end_char_index: number;
    }
  | {
      readonly type: 'page_location';
      readonly cited_text: string;
      readonly document_index: number;
      readonly document_title: string | null;
      readonly start_page_number: number;
      readonly end_page_number: number;
    }
  | {
      readonly type: 'content_block_location';
      readonly cited_text: string;
      readonly document_index: number;
      readonly document_title: string | null;
      readonly start_block_index: number;
      readonly end_block_index: number;
    }
  | { readonly type: 'web_search_result_location'; readonly cited_text: string; readonly encrypted_index: string; readonly title: string | null; readonly url: string }
  | {
      readonly type: 'search_result_location';
      readonly cited_text: string;
      readonly search_result_index: number;
      readonly source: string;
      readonly title: string | null;
      readonly start_block_index: number;
      readonly end_block_index: number;
    };

/** A `text` block, with the citations it came with. */
export interface AnthropicTextBlockParam {
  readonly type: 'text';
  readonly text: string;
  readonly citations?: AnthropicCitationParam[] | undefined;
}

/** An `image` block: base64 data of a supported type, or a URL. */
export interface AnthropicImageBlockParam {
  readonly type: 'image';
  readonly source: { readonly type: 'base64'; readonly media_type: AnthropicImageMediaType; readonly data: string } | { readonly type: 'url'; readonly url: string };
}

/** A `document` block holding a PDF: base64 data or a URL. */
export interface AnthropicDocumentBlockParam {
  readonly type: 'document';
  readonly source: { readonly type: 'base64'; readonly media_type: 'application/pdf'; readonly data: string } | { readonly type: 'url'; readonly url: string };
}

/** A `thinking` block with the signature Anthropic gave it. */
export interface AnthropicThinkingBlockParam {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly signature: string;
}

/** A `redacted_thinking` block with its encrypted data. */
export interface AnthropicRedactedThinkingBlockParam {
  readonly type: 'redacted_thinking';
  readonly data: string;
}

/** A `tool_use` block: the call's id, name and arguments as an object. */
export interface AnthropicToolUseBlockParam {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** A `tool_result` block answering the `tool_use` of the same id. */
export interface AnthropicToolResultBlockParam {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string | Array<AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicDocumentBlockParam>;
  readonly is_error?: boolean | undefined;
}

/**
 * A block of Anthropic's own that partstream does not model (an `unknown` part), sent back as it
 * came. Its static type names the server-tool blocks the API documents (`server_tool_use` and its
 * results); at run time it is whatever block Anthropic sent.
 */
export type AnthropicPassthroughBlockParam =
  | {
      readonly type: 'server_tool_use';
      readonly id: string;
      readonly name: 'web_search' | 'web_fetch' | 'code_execution' | 'bash_code_execution' | 'text_editor_code_execution';
      readonly input: unknown;
    }
  | {
      readonly type: 'web_search_tool_result';
      readonly tool_use_id: string;
      readonly content: Array<{ readonly type: 'web_search_result'; readonly encrypted_content: string; readonly title: string; readonly url: string; readonly page_age?: string | null | undefined }>;
    };

/** A block of a user turn. */
export type AnthropicUserBlockParam = AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicDocumentBlockParam | AnthropicToolResultBlockParam;

/** A block of an assistant turn. */
export type AnthropicAssistantBlockParam = AnthropicThinkingBlockParam | AnthropicRedactedThinkingBlockParam | AnthropicTextBlockParam | AnthropicToolUseBlockParam | AnthropicPassthroughBlockParam;

/** An Anthropic Messages API message (`MessageParam`): a user or an assistant turn. */
export type AnthropicMessageParam = { readonly role: 'user'; readonly content: string | AnthropicUserBlockParam[] } | { readonly role: 'assistant'; readonly content: AnthropicAssistantBlockParam[] };

/** The request fields `toAnthropicMessages` returns. */
export interface AnthropicMessagesInput {
  readonly system?: string | undefined;
  readonly messages: AnthropicMessageParam[];
}
