import type { AiMessage } from '../handler/types';
import type { MessagePart } from '../parts/types';
import type { ChatMessage, ToolExecutionResultMessage } from './chat-message';
import { requireChatMessages } from './chat-message';
import type { JsonObject } from './replay-helpers';
import { argumentsObject, isIncomplete, joinSystem, mediaBase64, parseRawJson, payloadData, resultText } from './replay-helpers';

const PROVIDER = 'google';

/** A Gemini `Content`: a role and its parts. */
export interface GeminiContentParam {
  readonly role: 'user' | 'model';
  readonly parts: JsonObject[];
}

function userParts(content: string | readonly MessagePart[]): JsonObject[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part): JsonObject => {
    if (part.type === 'text') return { text: part.text };
    if (part.type !== 'media') throw new TypeError(`Expected Gemini user content to be text or media parts, got a ${part.type} part`);
    const base64 = mediaBase64(part.media);
    return base64 === null ? { fileData: { mimeType: part.media.mimeType, fileUri: part.media.data } } : { inlineData: { mimeType: part.media.mimeType, data: base64 } };
  });
}

// The thought signature rides on the very part it came with (text, thought or functionCall).
function withSignature(out: JsonObject, part: MessagePart): JsonObject {
  const signature = payloadData(part.payload, PROVIDER, 'thought_signature');
  if (signature !== null) out.thoughtSignature = signature;
  return out;
}

function modelParts(message: AiMessage): JsonObject[] {
  const parts: JsonObject[] = [];
  for (const part of message.parts) {
    if (isIncomplete(part)) continue;
    switch (part.type) {
      case 'text':
        parts.push(withSignature({ text: part.text }, part));
        break;
      case 'reasoning':
        // Another provider's reasoning is its own; Gemini's (signed or not) goes back as a thought.
        if (part.payload === null || part.payload.provider === PROVIDER) parts.push(withSignature({ text: part.text ?? '', thought: true }, part));
        break;
      case 'tool_call': {
        const call: JsonObject = { name: part.toolCall.name ?? '', args: argumentsObject(part.toolCall) };
        if (part.toolCall.id !== null) call.id = part.toolCall.id;
        parts.push(withSignature({ functionCall: call }, part));
        break;
      }
      case 'media': {
        const base64 = mediaBase64(part.media);
        if (base64 !== null) parts.push(withSignature({ inlineData: { mimeType: part.media.mimeType, data: base64 } }, part));
        break;
      }
      case 'unknown':
        if (part.provider === PROVIDER) parts.push(parseRawJson(part.rawJson, `the Gemini ${part.kind} part`) as JsonObject);
        break;
      case 'tool_result':
        break;
    }
  }
  return parts;
}

function functionResponse(m: ToolExecutionResultMessage): JsonObject {
  const text = resultText(m.content, 'Gemini');
  const response: JsonObject = { name: m.request.name, response: m.isError ? { error: text } : { output: text } };
  if (m.request.id !== null) response.id = m.request.id;
  return { functionResponse: response };
}

/**
 * The conversation as Gemini `generateContent` fields: system messages joined into
 * `systemInstruction`, the rest as `contents` (`user` / `model`). A thought signature goes back on
 * the part it came with; Gemini unknown parts as they came; function calls with object `args`
 * (`TypeError` naming the call otherwise); consecutive tool results become one user turn of
 * `functionResponse` parts (`{output}` or, for an error, `{error}`). Other providers' payloads,
 * reasoning and parts and incomplete tool calls are left out. Pure: no I/O.
 */
export function toGeminiContents(messages: readonly ChatMessage[]): { systemInstruction?: { parts: Array<{ text: string }> } | undefined; contents: GeminiContentParam[] } {
  const system: string[] = [];
  const contents: GeminiContentParam[] = [];
  let toolTurn: JsonObject[] | null = null;
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
