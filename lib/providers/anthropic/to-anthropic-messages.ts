import type { AiMessage } from '../../handler/types';
import type { MessagePart } from '../../parts/types';
import type { ChatMessage, ToolExecutionResultMessage, UserMessage } from '../../replay/chat-message';
import { requireChatMessages } from '../../replay/chat-message';
import type {
  AnthropicAssistantBlockParam,
  AnthropicCitationParam,
  AnthropicDocumentBlockParam,
  AnthropicImageBlockParam,
  AnthropicImageMediaType,
  AnthropicMessageParam,
  AnthropicMessagesInput,
  AnthropicPassthroughBlockParam,
  AnthropicTextBlockParam,
  AnthropicToolResultBlockParam,
  AnthropicUserBlockParam,
} from './anthropic-message-param';
import { argumentsObject, isIncomplete, joinSystem, mediaBase64, parseRawJson, payloadData, ToolCallIds } from '../../replay/replay-helpers';

const PROVIDER = 'anthropic';
const IMAGE_TYPES: ReadonlySet<string> = new Set<AnthropicImageMediaType>(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function mediaBlock(part: MessagePart): AnthropicImageBlockParam | AnthropicDocumentBlockParam {
  if (part.type !== 'media') throw new TypeError(`Expected a media part, got a ${part.type} part`);
  const { media } = part;
  const base64 = mediaBase64(media);
  const url = media.dataKind === 'url' ? ({ type: 'url', url: media.data } as const) : null;
  if (IMAGE_TYPES.has(media.mimeType)) {
    return { type: 'image', source: url ?? { type: 'base64', media_type: media.mimeType as AnthropicImageMediaType, data: base64! } };
  }
  if (media.mimeType === 'application/pdf') {
    return { type: 'document', source: url ?? { type: 'base64', media_type: 'application/pdf', data: base64! } };
  }
  throw new TypeError(`Expected Anthropic media to be a JPEG, PNG, GIF or WebP image or a PDF, got mimeType ${JSON.stringify(media.mimeType)}`);
}

function userBlocks(content: UserMessage['content'] | readonly MessagePart[]): Array<AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicDocumentBlockParam> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: Array<AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicDocumentBlockParam> = [];
  for (const part of content) {
    if (part.type === 'text') blocks.push({ type: 'text', text: part.text });
    else if (part.type === 'media') blocks.push(mediaBlock(part));
    else throw new TypeError(`Expected Anthropic user content to be text or media parts, got a ${part.type} part`);
  }
  return blocks;
}

function toolResultBlock(m: ToolExecutionResultMessage, ids: ToolCallIds): AnthropicToolResultBlockParam {
  const block = { type: 'tool_result', tool_use_id: ids.forResult(m.request, 'Anthropic'), content: typeof m.content === 'string' ? m.content : userBlocks(m.content) } as const;
  return m.isError ? { ...block, is_error: true } : block;
}

const citationsOf = (json: string): AnthropicCitationParam[] => parseRawJson(json, 'Anthropic citations') as AnthropicCitationParam[];

// The assistant turn: each part on its own block, in order. Reasoning goes back only with an
// Anthropic signature or redacted data: the API rejects a thinking block without its signature.
function assistantBlocks(message: AiMessage, ids: ToolCallIds): AnthropicAssistantBlockParam[] {
  const blocks: AnthropicAssistantBlockParam[] = [];
  for (const part of message.parts) {
    if (isIncomplete(part)) continue;
    switch (part.type) {
      case 'reasoning': {
        const signature = payloadData(part.payload, PROVIDER, 'signature');
        const redacted = payloadData(part.payload, PROVIDER, 'redacted_thinking');
        if (signature !== null) blocks.push({ type: 'thinking', thinking: part.text ?? '', signature });
        else if (redacted !== null) blocks.push({ type: 'redacted_thinking', data: redacted });
        break;
      }
      case 'text': {
        const citations = payloadData(part.payload, PROVIDER, 'citations');
        if (citations !== null && part.text === '') {
          // The mapper puts a text block's citations on an empty part just after its text.
          const last = blocks[blocks.length - 1];
          if (last !== undefined && last.type === 'text') blocks[blocks.length - 1] = { ...last, citations: citationsOf(citations) };
        } else if (part.text !== '') {
          blocks.push(citations === null ? { type: 'text', text: part.text } : { type: 'text', text: part.text, citations: citationsOf(citations) });
        }
        break;
      }
      case 'tool_call':
        blocks.push({ type: 'tool_use', id: ids.forCall(part.toolCall), name: part.toolCall.name ?? '', input: argumentsObject(part.toolCall) });
        break;
      case 'unknown':
        if (part.provider === PROVIDER) blocks.push(parseRawJson(part.rawJson, `the Anthropic ${part.kind} block`) as AnthropicPassthroughBlockParam);
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

/**
 * The conversation as Anthropic Messages request fields: system messages joined into `system`, the
 * rest as `messages`. Thinking goes back with its signature, redacted thinking with its data,
 * Anthropic unknown blocks as they came, tool calls as `tool_use` with their arguments parsed
 * (`TypeError` naming the call when not a JSON object); consecutive tool results become one user
 * turn of `tool_result` blocks. Other providers' payloads and parts, reasoning without an Anthropic
 * signature, and incomplete tool calls are left out. A call or result without an id (from
 * Gemini or Ollama) gets a made-up one, `partstream-call-<n>` (see `ToolCallIds`): Anthropic
 * requires it. Pure: no I/O.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): AnthropicMessagesInput {
  const system: string[] = [];
  const out: AnthropicMessageParam[] = [];
  const ids = new ToolCallIds();
  let toolTurn: AnthropicUserBlockParam[] | null = null; // the open user turn of tool results
  for (const m of requireChatMessages(messages, 'toAnthropicMessages')) {
    switch (m.type) {
      case 'system':
        system.push(m.text);
        break;
      case 'tool_execution_result':
        if (toolTurn === null) {
          toolTurn = [];
          out.push({ role: 'user', content: toolTurn });
        }
        toolTurn.push(toolResultBlock(m, ids));
        break;
      case 'user':
        if (toolTurn !== null)
          toolTurn.push(...userBlocks(m.content)); // after the results, in the same turn
        else out.push({ role: 'user', content: typeof m.content === 'string' ? m.content : userBlocks(m.content) });
        toolTurn = null;
        break;
      case 'ai': {
        toolTurn = null;
        // A turn left with nothing to send (say, only another provider's reasoning) is skipped:
        // the API rejects an empty content list.
        const blocks = assistantBlocks(m, ids);
        if (blocks.length > 0) out.push({ role: 'assistant', content: blocks });
        break;
      }
    }
  }
  const text = joinSystem(system);
  return text === undefined ? { messages: out } : { system: text, messages: out };
}
