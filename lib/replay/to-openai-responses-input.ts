import type { AiMessage } from '../handler/types';
import type { ChatMessage, UserMessage } from './chat-message';
import { requireChatMessages } from './chat-message';
import type { JsonObject } from './replay-helpers';
import { isIncomplete, joinSystem, mediaBase64, mediaUrl, parseRawJson, payloadData, resultText } from './replay-helpers';

const PROVIDER = 'openai';
const ITEM_ID = 'itemId';

function userContent(content: UserMessage['content']): string | JsonObject[] {
  if (typeof content === 'string') return content;
  return content.map((part): JsonObject => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    const { media } = part;
    if (media.mimeType.startsWith('image/')) return { type: 'input_image', image_url: mediaUrl(media), detail: 'auto' };
    const base64 = mediaBase64(media);
    if (base64 === null) return { type: 'input_file', file_url: media.data };
    return { type: 'input_file', filename: media.name ?? 'file', file_data: mediaUrl(media) };
  });
}

// Parts of one output item (same itemId) are one input item again: a reasoning item with all its
// summaries and its encrypted content, a message with all its output_text.
function assistantItems(message: AiMessage): JsonObject[] {
  const items: JsonObject[] = [];
  let open: { kind: 'reasoning' | 'message'; id: string | undefined; item: JsonObject } | null = null;
  const itemFor = (kind: 'reasoning' | 'message', id: string | undefined, make: () => JsonObject): JsonObject => {
    if (open !== null && open.kind === kind && open.id === id && id !== undefined) return open.item;
    const item = make();
    items.push(item);
    open = { kind, id, item };
    return item;
  };
  for (const part of message.parts) {
    if (isIncomplete(part)) continue;
    const id = part.attributes[ITEM_ID];
    switch (part.type) {
      case 'reasoning': {
        const encrypted = payloadData(part.payload, PROVIDER, 'encrypted_content');
        // A reasoning item goes back only as OpenAI made it: with its id or encrypted content.
        if (id === undefined && encrypted === null) break;
        if (part.payload !== null && encrypted === null) break;
        const item = itemFor('reasoning', id, () => (id === undefined ? { type: 'reasoning', summary: [] } : { type: 'reasoning', id, summary: [] }));
        const summary = part.summary ?? part.text;
        if (summary !== null && summary !== '') (item.summary as JsonObject[]).push({ type: 'summary_text', text: summary });
        if (encrypted !== null) item.encrypted_content = encrypted;
        break;
      }
      case 'text': {
        const annotations = payloadData(part.payload, PROVIDER, 'annotations');
        const item = itemFor('message', id, () =>
          id === undefined ? { type: 'message', role: 'assistant', content: [] } : { type: 'message', role: 'assistant', id, status: 'completed', content: [] },
        );
        const content = item.content as JsonObject[];
        if (part.text === '' && annotations !== null && content.length > 0) {
          content[content.length - 1]!.annotations = parseRawJson(annotations, 'OpenAI annotations');
        } else {
          content.push({ type: 'output_text', text: part.text, annotations: annotations === null ? [] : parseRawJson(annotations, 'OpenAI annotations') });
        }
        break;
      }
      case 'tool_call': {
        open = null;
        const call = part.toolCall;
        const args = call.arguments ?? '';
        const item: JsonObject =
          call.type === 'custom'
            ? { type: 'custom_tool_call', call_id: call.id ?? '', name: call.name ?? '', input: args }
            : { type: 'function_call', call_id: call.id ?? '', name: call.name ?? '', arguments: args.trim() === '' ? '{}' : args };
        if (id !== undefined) item.id = id;
        items.push(item);
        break;
      }
      case 'unknown':
        open = null;
        if (part.provider === PROVIDER) items.push(parseRawJson(part.rawJson, `the OpenAI ${part.kind} item`) as JsonObject);
        break;
      case 'media':
      case 'tool_result':
        open = null;
        break;
    }
  }
  return items.filter((item) => item.type !== 'message' || (item.content as unknown[]).length > 0);
}

/**
 * The conversation as OpenAI Responses fields: system messages joined into `instructions`, the
 * rest as `input` items in order. Reasoning goes back as `reasoning` items with their `id`
 * (attribute `itemId`), `summary` and `encrypted_content`; text as assistant messages (with their
 * `id` and annotations when known); tool calls as `function_call` items (arguments as sent);
 * OpenAI unknown items as they came; tool results as `function_call_output`. Other providers'
 * payloads and parts and incomplete tool calls are left out. Pure: no I/O.
 */
export function toOpenAIResponsesInput(messages: readonly ChatMessage[]): { instructions?: string | undefined; input: JsonObject[] } {
  const system: string[] = [];
  const input: JsonObject[] = [];
  for (const m of requireChatMessages(messages, 'toOpenAIResponsesInput')) {
    switch (m.type) {
      case 'system':
        system.push(m.text);
        break;
      case 'user':
        input.push({ role: 'user', content: userContent(m.content) });
        break;
      case 'ai':
        input.push(...assistantItems(m));
        break;
      case 'tool_execution_result':
        input.push({ type: 'function_call_output', call_id: m.request.id ?? '', output: resultText(m.content, 'OpenAI Responses') });
        break;
    }
  }
  const text = joinSystem(system);
  return text === undefined ? { input } : { instructions: text, input };
}
