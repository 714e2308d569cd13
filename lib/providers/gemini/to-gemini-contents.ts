import type { AiMessage } from '../../handler/types';
import type { MessagePart } from '../../parts/types';
import type { ChatMessage, ToolExecutionResultMessage } from '../../replay/chat-message';
import { requireChatMessages } from '../../replay/chat-message';
import type { GeminiContentParam, GeminiContentsInput, GeminiPartParam } from './gemini-content-param';
import { argumentsObject, isIncomplete, joinSystem, mediaBase64, mediaUrl, parseRawJson, payloadData, resultText } from '../../replay/replay-helpers';

const PROVIDER = 'google';

function userParts(content: string | readonly MessagePart[]): GeminiPartParam[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part): GeminiPartParam => {
    if (part.type === 'text') return { text: part.text };
    if (part.type !== 'media') throw new TypeError(`Expected Gemini user content to be text or media parts, got a ${part.type} part`);
    const base64 = mediaBase64(part.media);
    return base64 === null ? { fileData: { mimeType: part.media.mimeType, fileUri: mediaUrl(part.media) } } : { inlineData: { mimeType: part.media.mimeType, data: base64 } };
  });
}

// The thought signature rides on the very part it came with (text, thought or functionCall).
function withSignature(out: GeminiPartParam, part: MessagePart): GeminiPartParam {
  const signature = payloadData(part.payload, PROVIDER, 'thought_signature');
  return signature === null ? out : { ...out, thoughtSignature: signature };
}

function modelParts(message: AiMessage): GeminiPartParam[] {
  const parts: GeminiPartParam[] = [];
  for (const part of message.parts) {
    if (isIncomplete(part)) continue;
    switch (part.type) {
      case 'text':
        parts.push(withSignature({ text: part.text }, part));
        break;
      case 'reasoning':
        // Only Gemini's own thoughts go back, as thoughts with their signature: reasoning without a
        // Gemini payload (DeepSeek, Ollama thinking, another provider's) is not Gemini's to be given.
        if (part.payload !== null && part.payload.provider === PROVIDER) parts.push(withSignature({ text: part.text ?? '', thought: true }, part));
        break;
      case 'tool_call': {
        // Gemini's id is optional (Gemini 2 sends none): a call without one goes back without one.
        const { id, name } = part.toolCall;
        const args = argumentsObject(part.toolCall);
        parts.push(withSignature({ functionCall: id === null ? { name: name ?? '', args } : { name: name ?? '', args, id } }, part));
        break;
      }
      case 'media': {
        const base64 = mediaBase64(part.media);
        if (base64 !== null) parts.push(withSignature({ inlineData: { mimeType: part.media.mimeType, data: base64 } }, part));
        break;
      }
      case 'unknown':
        if (part.provider === PROVIDER) parts.push(parseRawJson(part.rawJson, `the Gemini ${part.kind} part`) as GeminiPartParam);
        break;
      case 'tool_result':
        break;
    }
  }
  return parts;
}

function functionResponse(m: ToolExecutionResultMessage): GeminiPartParam {
  const text = resultText(m.content, 'Gemini');
  const response = { name: m.request.name, response: m.isError ? { error: text } : { output: text } };
  return { functionResponse: m.request.id === null ? response : { ...response, id: m.request.id } };
}

/**
 * The conversation as Gemini `generateContent` fields: system messages joined into
 * `systemInstruction`, the rest as `contents` (`user` / `model`). A thought signature goes back on
 * the part it came with; Gemini unknown parts as they came; function calls with object `args`
 * (`TypeError` naming the call otherwise); consecutive tool results become one user turn of
 * `functionResponse` parts (`{output}` or, for an error, `{error}`). Reasoning goes back only with a
 * Gemini payload (its thought signature); reasoning without one (DeepSeek, Ollama thinking), other
 * providers' payloads and parts, and incomplete tool calls are left out. Ids are optional in Gemini: a call
 * or result without one goes back without one. Pure: no I/O.
 */
export function toGeminiContents(messages: readonly ChatMessage[]): GeminiContentsInput {
  const system: string[] = [];
  const contents: GeminiContentParam[] = [];
  let toolTurn: GeminiPartParam[] | null = null;
  for (const m of requireChatMessages(messages, 'toGeminiContents')) {
    switch (m.type) {
      case 'system':
        system.push(m.text);
        break;
      case 'user':
        contents.push({ role: 'user', parts: userParts(m.content) });
        toolTurn = null;
        break;
      case 'ai': {
        // A turn left with no part to send is skipped: Gemini rejects a content without parts.
        const parts = modelParts(m);
        if (parts.length > 0) contents.push({ role: 'model', parts });
        toolTurn = null;
        break;
      }
      case 'tool_execution_result':
        if (toolTurn === null) {
          toolTurn = [];
          contents.push({ role: 'user', parts: toolTurn });
        }
        toolTurn.push(functionResponse(m));
        break;
    }
  }
  const text = joinSystem(system);
  return text === undefined ? { contents } : { systemInstruction: { parts: [{ text }] }, contents };
}
