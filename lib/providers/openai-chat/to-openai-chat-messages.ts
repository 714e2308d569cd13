import type { AiMessage, JsonValue } from '../../handler/types';
import type { ChatMessage, UserMessage } from '../../replay/chat-message';
import { requireChatMessages } from '../../replay/chat-message';
import type { OpenAIChatAssistantMessageParam, OpenAIChatMessageParam, OpenAIChatMessagesInput, OpenAIChatToolCallParam, OpenAIChatUserContentPart } from './openai-chat-message-param';
import { isIncomplete, mediaUrl, parseRawJson, payloadData, resultText, ToolCallIds } from '../../replay/replay-helpers';

function userContent(content: UserMessage['content']): string | OpenAIChatUserContentPart[] {
  if (typeof content === 'string') return content;
  return content.map((part): OpenAIChatUserContentPart => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (!part.media.mimeType.startsWith('image/')) {
      throw new TypeError(`Expected OpenAI Chat user media to be an image, got mimeType ${JSON.stringify(part.media.mimeType)}`);
    }
    return { type: 'image_url', image_url: { url: mediaUrl(part.media) } };
  });
}

// Chat has no reasoning input of its own: only OpenRouter's reasoning_details entries go back,
// on the assistant message, as they came.
function assistantMessage(message: AiMessage, ids: ToolCallIds): OpenAIChatAssistantMessageParam {
  let text: string | null = null;
  const toolCalls: OpenAIChatToolCallParam[] = [];
  const details: JsonValue[] = [];
  for (const part of message.parts) {
    if (isIncomplete(part)) continue;
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'tool_call') {
      const call = part.toolCall;
      const args = call.arguments === null || call.arguments.trim() === '' ? '{}' : call.arguments;
      toolCalls.push({ id: ids.forCall(call), type: 'function', function: { name: call.name ?? '', arguments: args } });
    }
    const detail = payloadData(part.payload, 'openrouter', 'reasoning_details');
    if (detail !== null) details.push(parseRawJson(detail, 'an OpenRouter reasoning_details entry') as JsonValue);
  }
  return {
    role: 'assistant',
    content: text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(details.length > 0 ? { reasoning_details: details } : {}),
  };
}

/**
 * The conversation as OpenAI Chat Completions `messages`, in order: system, user (text and image
 * parts), assistant (text, `tool_calls` with the arguments string as sent, OpenRouter
 * `reasoning_details` as they came) and one `tool` message per tool result. Other providers'
 * payloads and parts and incomplete tool calls are left out. A call or result without an id (from
 * Gemini or Ollama) gets a made-up one, `partstream-call-<n>` (see `ToolCallIds`): the API
 * requires it. Pure: no I/O.
 */
export function toOpenAIChatMessages(messages: readonly ChatMessage[]): OpenAIChatMessagesInput {
  const out: OpenAIChatMessageParam[] = [];
  const ids = new ToolCallIds();
  for (const m of requireChatMessages(messages, 'toOpenAIChatMessages')) {
    switch (m.type) {
      case 'system':
        out.push({ role: 'system', content: m.text });
        break;
      case 'user':
        out.push({ role: 'user', content: userContent(m.content) });
        break;
      case 'ai':
        out.push(assistantMessage(m, ids));
        break;
      case 'tool_execution_result':
        out.push({ role: 'tool', tool_call_id: ids.forResult(m.request, 'OpenAI Chat'), content: resultText(m.content, 'OpenAI Chat') });
        break;
    }
  }
  return { messages: out };
}
