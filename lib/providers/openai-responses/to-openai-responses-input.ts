import type { AiMessage } from '../../handler/types';
import type { MessagePart } from '../../parts/types';
import type { ChatMessage, UserMessage } from '../../replay/chat-message';
import { requireChatMessages } from '../../replay/chat-message';
import type { OpenAIResponsesAnnotation, OpenAIResponsesInput, OpenAIResponsesInputContent, OpenAIResponsesInputItem, OpenAIResponsesPassthroughItem } from './openai-responses-input-param';
import { isIncomplete, joinSystem, mediaBase64, mediaUrl, parseRawJson, payloadData, resultText, ToolCallIds } from '../../replay/replay-helpers';

const PROVIDER = 'openai';
const ITEM_ID = 'itemId';
/** The attribute the Responses mapper sets on a custom tool call's part (SPEC §10). */
const ITEM_TYPE = 'itemType';

function userContent(content: UserMessage['content']): string | OpenAIResponsesInputContent[] {
  if (typeof content === 'string') return content;
  return content.map((part): OpenAIResponsesInputContent => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    const { media } = part;
    if (media.mimeType.startsWith('image/')) return { type: 'input_image', image_url: mediaUrl(media), detail: 'auto' };
    if (mediaBase64(media) === null) return { type: 'input_file', file_url: mediaUrl(media) };
    return { type: 'input_file', filename: media.name ?? 'file', file_data: mediaUrl(media) };
  });
}

type Output = Array<{ type: 'output_text'; text: string; annotations: OpenAIResponsesAnnotation[] }>;
/** An item being gathered from the parts of one output item (same `itemId`). */
type Open =
  | { readonly kind: 'reasoning'; readonly id: string; readonly item: { type: 'reasoning'; id: string; summary: Array<{ type: 'summary_text'; text: string }>; encrypted_content?: string } }
  | { readonly kind: 'message'; readonly id: string | undefined; readonly content: Output };

const annotationsOf = (json: string): OpenAIResponsesAnnotation[] => parseRawJson(json, 'OpenAI annotations') as OpenAIResponsesAnnotation[];

function isCustomCall(part: MessagePart & { type: 'tool_call' }): boolean {
  return part.attributes[ITEM_TYPE] === 'custom_tool_call' || part.toolCall.type === 'custom';
}

// Parts of one output item (same itemId) are one input item again: a reasoning item with all its
// summaries and its encrypted content, a message with all its output_text.
function assistantItems(message: AiMessage, ids: ToolCallIds, customCalls: Set<string>): OpenAIResponsesInputItem[] {
  const items: Array<OpenAIResponsesInputItem | Open> = [];
  let open: Open | null = null;
  for (const part of message.parts) {
    if (isIncomplete(part)) continue;
    const id = part.attributes[ITEM_ID];
    switch (part.type) {
      case 'reasoning': {
        const encrypted = payloadData(part.payload, PROVIDER, 'encrypted_content');
        // A reasoning item goes back only as OpenAI made it: with its id (which the API requires).
        if (id === undefined || (part.payload !== null && encrypted === null)) break;
        if (open === null || open.kind !== 'reasoning' || open.id !== id) {
          open = { kind: 'reasoning', id, item: { type: 'reasoning', id, summary: [] } };
          items.push(open);
        }
        const summary = part.summary ?? part.text;
        if (summary !== null && summary !== '') open.item.summary.push({ type: 'summary_text', text: summary });
        if (encrypted !== null) open.item.encrypted_content = encrypted;
        break;
      }
      case 'text': {
        const annotations = payloadData(part.payload, PROVIDER, 'annotations');
        if (open === null || open.kind !== 'message' || open.id !== id || id === undefined) {
          open = { kind: 'message', id, content: [] };
          items.push(open);
        }
        const last = open.content[open.content.length - 1];
        if (part.text === '' && annotations !== null && last !== undefined) last.annotations = annotationsOf(annotations);
        else open.content.push({ type: 'output_text', text: part.text, annotations: annotations === null ? [] : annotationsOf(annotations) });
        break;
      }
      case 'tool_call': {
        open = null;
        const call = part.toolCall;
        const callId = ids.forCall(call);
        const args = call.arguments ?? '';
        const withId = id === undefined ? {} : { id };
        if (isCustomCall(part)) {
          customCalls.add(callId);
          items.push({ type: 'custom_tool_call', ...withId, call_id: callId, name: call.name ?? '', input: args });
        } else {
          items.push({ type: 'function_call', ...withId, call_id: callId, name: call.name ?? '', arguments: args.trim() === '' ? '{}' : args });
        }
        break;
      }
      case 'unknown':
        open = null;
        if (part.provider === PROVIDER) items.push(parseRawJson(part.rawJson, `the OpenAI ${part.kind} item`) as OpenAIResponsesPassthroughItem);
        break;
      case 'media':
      case 'tool_result':
        open = null;
        break;
    }
  }
  return items.flatMap((item): OpenAIResponsesInputItem[] => {
    if (!('kind' in item)) return [item];
    if (item.kind === 'reasoning') return [item.item];
    const content = item.content.filter((c) => c.text !== '' || c.annotations.length > 0);
    if (content.length === 0) return [];
    // With its item id, the output message as it came; without one (another provider's text), plain assistant text.
    if (item.id !== undefined) return [{ type: 'message', role: 'assistant', id: item.id, status: 'completed', content }];
    return [{ type: 'message', role: 'assistant', content: content.map((c) => c.text).join('') }];
  });
}

/**
 * The conversation as OpenAI Responses fields: system messages joined into `instructions`, the
 * rest as `input` items in order. Reasoning goes back as `reasoning` items with their `id`
 * (attribute `itemId`, required: reasoning without one is left out), `summary` and
 * `encrypted_content`; text as assistant `message` items with their `id` and annotations (text
 * without an item id as a plain assistant message); tool calls as `function_call` items
 * (arguments as sent), or `custom_tool_call` items (their `input`) for a part marked
 * `itemType: "custom_tool_call"`; OpenAI unknown items as they came; tool results as
 * `function_call_output` (`custom_tool_call_output` for a custom call). Other providers' payloads
 * and parts and incomplete tool calls are left out. A call or result without an id (from Gemini
 * or Ollama) gets a made-up one, `partstream-call-<n>` (see `ToolCallIds`): the API requires it.
 * Pure: no I/O.
 */
export function toOpenAIResponsesInput(messages: readonly ChatMessage[]): OpenAIResponsesInput {
  const system: string[] = [];
  const input: OpenAIResponsesInputItem[] = [];
  const ids = new ToolCallIds();
  const customCalls = new Set<string>();
  for (const m of requireChatMessages(messages, 'toOpenAIResponsesInput')) {
    switch (m.type) {
      case 'system':
        system.push(m.text);
        break;
      case 'user':
        input.push({ role: 'user', content: userContent(m.content) });
        break;
      case 'ai':
        input.push(...assistantItems(m, ids, customCalls));
        break;
      case 'tool_execution_result': {
        const callId = ids.forResult(m.request, 'OpenAI Responses');
        const type = customCalls.has(callId) ? 'custom_tool_call_output' : 'function_call_output';
        input.push({ type, call_id: callId, output: resultText(m.content, 'OpenAI Responses') });
        break;
      }
    }
  }
  const text = joinSystem(system);
  return text === undefined ? { input } : { instructions: text, input };
}
