import type { AiMessage } from '../../handler/types';
import { base64ToBytes } from '../../parts/base64';
import { describeValue } from '../../parts/describe-value';
import type { MessagePart } from '../../parts/types';
import type { ChatMessage, ToolExecutionResultMessage, UserMessage } from '../../replay/chat-message';
import { requireChatMessages } from '../../replay/chat-message';
import { argumentsObject, isIncomplete, mediaBase64, parseRawJson, payloadData, ToolCallIds } from '../../replay/replay-helpers';
import { BEDROCK_PROVIDER } from './bedrock-converse-blocks';
import type {
  BedrockAssistantBlock,
  BedrockCitation,
  BedrockConverseInput,
  BedrockDocument,
  BedrockDocumentFormat,
  BedrockImageFormat,
  BedrockMessageParam,
  BedrockPassthroughBlock,
  BedrockTextBlock,
  BedrockToolResultBlock,
  BedrockToolResultContent,
  BedrockUserBlock,
} from './bedrock-message-param';

/** Options of `toBedrockMessages`. */
export interface ToBedrockMessagesOptions {
  /**
   * How binary fields (image and document bytes, redacted reasoning) are written: `base64` text,
   * as the HTTP API's JSON takes them (the default; for `streamBedrockConverse`), or `uint8array`,
   * as the AWS SDK's `ConverseStreamCommand` takes them.
   */
  readonly bytes?: 'base64' | 'uint8array' | undefined;
}

const IMAGE_FORMATS: ReadonlyMap<string, BedrockImageFormat> = new Map([
  ['image/png', 'png'],
  ['image/jpeg', 'jpeg'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
]);
const DOCUMENT_FORMATS: ReadonlyMap<string, BedrockDocumentFormat> = new Map([
  ['application/pdf', 'pdf'],
  ['text/csv', 'csv'],
  ['application/msword', 'doc'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
  ['application/vnd.ms-excel', 'xls'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
  ['text/html', 'html'],
  ['text/plain', 'txt'],
  ['text/markdown', 'md'],
]);

/** One conversion: how bytes are written, and the tool-call ids of the conversation. */
class Converter<B> {
  readonly ids = new ToolCallIds();
  private documents = 0;

  constructor(private readonly bytes: (base64: string) => B) {}

  mediaBlock(part: MessagePart): BedrockToolResultContent<B> {
    if (part.type !== 'media') throw new TypeError(`Expected a media part, got a ${part.type} part`);
    const { media } = part;
    const base64 = mediaBase64(media);
    if (base64 === null) throw new TypeError(`Expected Bedrock media to carry its bytes (Converse takes no URL), got a URL for ${JSON.stringify(media.mimeType)}`);
    const image = IMAGE_FORMATS.get(media.mimeType);
    if (image !== undefined) return { image: { format: image, source: { bytes: this.bytes(base64) } } };
    const document = DOCUMENT_FORMATS.get(media.mimeType);
    if (document !== undefined) {
      this.documents += 1;
      return { document: { format: document, name: media.name ?? `document-${this.documents}`, source: { bytes: this.bytes(base64) } } };
    }
    throw new TypeError(`Expected Bedrock media to be a PNG, JPEG, GIF or WebP image or a document (PDF, CSV, Word, Excel, HTML, text, Markdown), got mimeType ${JSON.stringify(media.mimeType)}`);
  }

  contentBlocks(content: UserMessage['content'] | readonly MessagePart[]): Array<BedrockToolResultContent<B>> {
    if (typeof content === 'string') return [{ text: content }];
    const blocks: Array<BedrockToolResultContent<B>> = [];
    for (const part of content) {
      if (part.type === 'text') blocks.push({ text: part.text });
      else if (part.type === 'media') blocks.push(this.mediaBlock(part));
      else throw new TypeError(`Expected Bedrock user content to be text or media parts, got a ${part.type} part`);
    }
    return blocks;
  }

  toolResultBlock(m: ToolExecutionResultMessage): BedrockToolResultBlock<B> {
    const toolResult = { toolUseId: this.ids.forResult(m.request, 'Bedrock'), content: this.contentBlocks(m.content) };
    return { toolResult: m.isError ? { ...toolResult, status: 'error' } : toolResult };
  }

  // The assistant turn: each part on its own block, in order. Reasoning goes back only with a
  // Bedrock signature or redacted content: the API rejects a Claude reasoning block without them.
  assistantBlocks(message: AiMessage): Array<BedrockAssistantBlock<B>> {
    const blocks: Array<BedrockAssistantBlock<B>> = [];
    for (const part of message.parts) {
      if (isIncomplete(part)) continue;
      switch (part.type) {
        case 'reasoning': {
          const signature = payloadData(part.payload, BEDROCK_PROVIDER, 'signature');
          const redacted = payloadData(part.payload, BEDROCK_PROVIDER, 'redacted_content');
          if (signature !== null) blocks.push({ reasoningContent: { reasoningText: { text: part.text ?? '', signature } } });
          else if (redacted !== null) blocks.push({ reasoningContent: { redactedContent: this.bytes(redacted) } });
          break;
        }
        case 'text': {
          const citations = payloadData(part.payload, BEDROCK_PROVIDER, 'citations');
          if (citations === null) {
            if (part.text !== '') blocks.push({ text: part.text });
            break;
          }
          const list = citationsOf(citations);
          const last = blocks[blocks.length - 1];
          // Citations on an empty part just after its text belong to that text.
          if (part.text === '' && last !== undefined && isTextBlock(last)) blocks[blocks.length - 1] = { citationsContent: { content: [{ text: last.text }], citations: list } };
          else if (part.text !== '') blocks.push({ citationsContent: { content: [{ text: part.text }], citations: list } });
          break;
        }
        case 'tool_call':
          blocks.push({ toolUse: { toolUseId: this.ids.forCall(part.toolCall), name: part.toolCall.name ?? '', input: argumentsObject(part.toolCall) as { [key: string]: BedrockDocument } } });
          break;
        case 'unknown':
          if (part.provider === BEDROCK_PROVIDER) blocks.push(parseRawJson(part.rawJson, `the Bedrock ${part.kind} block`) as BedrockPassthroughBlock<B>);
          break;
        case 'media':
        case 'tool_result':
          // An assistant turn carries neither.
          break;
        default:
          throw new TypeError(`Expected a message part, got ${String((part satisfies never as MessagePart).type)}`);
      }
    }
    return blocks;
  }
}

function isTextBlock(block: unknown): block is BedrockTextBlock {
  return typeof block === 'object' && block !== null && typeof (block as { text?: unknown }).text === 'string' && Object.keys(block).length === 1;
}

function citationsOf(json: string): BedrockCitation[] {
  const value = parseRawJson(json, 'Bedrock citations');
  if (!Array.isArray(value)) throw new TypeError(`Expected Bedrock citations to be a JSON list, got ${describeValue(value)}`);
  return value as BedrockCitation[];
}

/**
 * The conversation as Bedrock Converse request fields: system messages as the `system` blocks (one
 * `{ text }` each, in order), the rest as `messages`. Reasoning goes back with its signature
 * (`reasoningContent.reasoningText`), redacted reasoning with its content as it came, text with
 * citations as `citationsContent`, Bedrock's unknown blocks (a server tool's use and result, a
 * block kind newer than partstream) as they came, tool calls as `toolUse` with their arguments
 * parsed (`TypeError` naming the call when not a JSON object); consecutive tool results become one
 * user turn of `toolResult` blocks (`status: 'error'` for an error), a user message after them
 * joins that turn. Other providers' payloads and parts, reasoning without a Bedrock signature or
 * redacted content, and incomplete tool calls are left out; an assistant turn left empty is
 * skipped. A call or result without an id gets a made-up one (`ToolCallIds`). Binary fields are
 * base64 text unless `options.bytes` is `uint8array` (for the AWS SDK). Pure: no I/O.
 */
export function toBedrockMessages(messages: readonly ChatMessage[], options?: { readonly bytes?: 'base64' | undefined }): BedrockConverseInput;
export function toBedrockMessages(messages: readonly ChatMessage[], options: { readonly bytes: 'uint8array' }): BedrockConverseInput<Uint8Array>;
export function toBedrockMessages(messages: readonly ChatMessage[], options: ToBedrockMessagesOptions = {}): BedrockConverseInput<string | Uint8Array> {
  if (typeof options !== 'object' || options === null) throw new TypeError(`Expected toBedrockMessages options, got ${describeValue(options)}`);
  const bytes = options.bytes ?? 'base64';
  if (bytes !== 'base64' && bytes !== 'uint8array') throw new TypeError(`Expected options.bytes to be base64 or uint8array, got ${describeValue(bytes)}`);
  const converter = new Converter<string | Uint8Array>(bytes === 'base64' ? (base64) => base64 : base64ToBytes);
  const system: BedrockTextBlock[] = [];
  const out: Array<BedrockMessageParam<string | Uint8Array>> = [];
  let toolTurn: Array<BedrockUserBlock<string | Uint8Array>> | null = null; // the open user turn of tool results
  for (const m of requireChatMessages(messages, 'toBedrockMessages')) {
    switch (m.type) {
      case 'system':
        system.push({ text: m.text });
        break;
      case 'tool_execution_result':
        if (toolTurn === null) {
          toolTurn = [];
          out.push({ role: 'user', content: toolTurn });
        }
        toolTurn.push(converter.toolResultBlock(m));
        break;
      case 'user':
        if (toolTurn !== null)
          toolTurn.push(...converter.contentBlocks(m.content)); // after the results, in the same turn
        else out.push({ role: 'user', content: converter.contentBlocks(m.content) });
        toolTurn = null;
        break;
      case 'ai': {
        toolTurn = null;
        const blocks = converter.assistantBlocks(m);
        if (blocks.length > 0) out.push({ role: 'assistant', content: blocks });
        break;
      }
    }
  }
  return system.length === 0 ? { messages: out } : { system, messages: out };
}
