import type { AiMessage } from '../../handler/types';
import type { ChatMessage, UserMessage } from '../../replay/chat-message';
import { requireChatMessages } from '../../replay/chat-message';
import type { OllamaMessageParam, OllamaMessagesInput, OllamaToolCallParam } from './ollama-message-param';
import { argumentsObject, isIncomplete, mediaBase64, resultText } from '../../replay/replay-helpers';

function userMessageParam(content: UserMessage['content']): OllamaMessageParam {
  if (typeof content === 'string') return { role: 'user', content };
  let text = '';
  const images: string[] = [];
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else {
      const base64 = mediaBase64(part.media);
      if (base64 === null) throw new TypeError('Expected Ollama user media to be bytes or base64, got a URL');
      images.push(base64);
    }
  }
  return images.length === 0 ? { role: 'user', content: text } : { role: 'user', content: text, images };
}

// Ollama has no payloads: thinking text goes back as `thinking`, tool calls with object arguments.
function assistantMessage(message: AiMessage): OllamaMessageParam {
  let text = '';
  let thinking: string | null = null;
  const toolCalls: OllamaToolCallParam[] = [];
  for (const part of message.parts) {
    if (isIncomplete(part)) continue;
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning' && part.text !== null && part.text !== '') thinking = (thinking ?? '') + part.text;
    else if (part.type === 'tool_call') toolCalls.push({ function: { name: part.toolCall.name ?? '', arguments: argumentsObject(part.toolCall) } });
  }
  return {
    role: 'assistant',
    content: text,
    ...(thinking === null ? {} : { thinking }),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

/**
 * The conversation as Ollama `/api/chat` `messages`, in order: system, user (text and base64
 * `images`), assistant (text, `thinking`, `tool_calls` with object arguments — a `TypeError`
 * naming the call otherwise) and one `tool` message per result with its `tool_name`. Payloads and
 * unknown parts (all another provider's) and incomplete tool calls are left out. Ollama has no
 * tool-call ids: results are matched by `tool_name` and order. Pure: no I/O.
 */
export function toOllamaMessages(messages: readonly ChatMessage[]): OllamaMessagesInput {
  const out: OllamaMessageParam[] = [];
  for (const m of requireChatMessages(messages, 'toOllamaMessages')) {
    switch (m.type) {
      case 'system':
        out.push({ role: 'system', content: m.text });
        break;
      case 'user':
        out.push(userMessageParam(m.content));
        break;
      case 'ai':
        out.push(assistantMessage(m));
        break;
      case 'tool_execution_result':
        out.push({ role: 'tool', content: resultText(m.content, 'Ollama'), tool_name: m.request.name });
        break;
    }
  }
  return { messages: out };
}
