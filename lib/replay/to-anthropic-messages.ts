import type { AiMessage } from '../handler/types';
import type { MessagePart } from '../parts/types';
import type { ChatMessage, ToolExecutionResultMessage, UserMessage } from './chat-message';
import { requireChatMessages } from './chat-message';
import type { JsonObject } from './replay-helpers';
import { argumentsObject, isIncomplete, joinSystem, mediaBase64, parseRawJson, payloadData } from './replay-helpers';

const PROVIDER = 'anthropic';

/** An Anthropic Messages API message (`MessageParam`). */
export interface AnthropicMessageParam {
  readonly role: 'user' | 'assistant';
  readonly content: string | JsonObject[];
}

function mediaBlock(part: MessagePart): JsonObject {
  if (part.type !== 'media') throw new TypeError(`Expected a media part, got a ${part.type} part`);
  const { media } = part;
  const base64 = mediaBase64(media);
  const source = base64 === null ? { type: 'url', url: media.data } : { type: 'base64', media_type: media.mimeType, data: base64 };
  if (media.mimeType.startsWith('image/')) return { type: 'image', source };
  if (media.mimeType === 'application/pdf') return { type: 'document', source };
  throw new TypeError(`Expected Anthropic media to be an image or a PDF, got mimeType ${JSON.stringify(media.mimeType)}`);
}

function userBlocks(content: UserMessage['content'] | readonly MessagePart[]): JsonObject[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: JsonObject[] = [];
  for (const part of content) {
    if (part.type === 'text') blocks.push({ type: 'text', text: part.text });
    else if (part.type === 'media') blocks.push(mediaBlock(part));
    else throw new TypeError(`Expected Anthropic user content to be text or media parts, got a ${part.type} part`);
  }
  return blocks;
}

function toolResultBlock(m: ToolExecutionResultMessage): JsonObject {
  const block: JsonObject = { type: 'tool_result', tool_use_id: m.request.id ?? '', content: typeof m.content === 'string' ? m.content : userBlocks(m.content) };
  if (m.isError) block.is_error = true;
  return block;
}

// The assistant turn: each part on its own block, in order. Reasoning goes back only with an
// Anthropic signature or redacted data: the API rejects a thinking block without its signature.
function assistantBlocks(message: AiMessage): JsonObject[] {
  const blocks: JsonObject[] = [];
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
          if (last !== undefined && last.type === 'text') last.citations = parseRawJson(citations, 'Anthropic citations');
        } else if (part.text !== '') {
          const block: JsonObject = { type: 'text', text: part.text };
          if (citations !== null) block.citations = parseRawJson(citations, 'Anthropic citations');
          blocks.push(block);
        }
        break;
      }
      case 'tool_call':
        blocks.push({ type: 'tool_use', id: part.toolCall.id ?? '', name: part.toolCall.name ?? '', input: argumentsObject(part.toolCall) });
        break;
      case 'unknown':
        if (part.provider === PROVIDER) blocks.push(parseRawJson(part.rawJson, `the Anthropic ${part.kind} block`) as JsonObject);
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
 * signature, and incomplete tool calls are left out. Pure: no I/O.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): { system?: string | undefined; messages: AnthropicMessageParam[] } {
  const system: string[] = [];
  const out: Array<{ role: 'user' | 'assistant'; content: string | JsonObject[] }> = [];
  let toolTurn: JsonObject[] | null = null; // the open user turn of tool results
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
        toolTurn.push(toolResultBlock(m));
        break;
      case 'user':
        if (toolTurn !== null) toolTurn.push(...userBlocks(m.content)); // after the results, in the same turn
        else out.push({ role: 'user', content: typeof m.content === 'string' ? m.content : userBlocks(m.content) });
        toolTurn = null;
        break;
      case 'ai': {
        toolTurn = null;
        // A turn left with nothing to send (say, only another provider's reasoning) is skipped:
        // the API rejects an empty content list.
        const blocks = assistantBlocks(m);
        if (blocks.length > 0) out.push({ role: 'assistant', content: blocks });
        break;
      }
    }
  }
  const text = joinSystem(system);
  return text === undefined ? { messages: out } : { system: text, messages: out };
}
