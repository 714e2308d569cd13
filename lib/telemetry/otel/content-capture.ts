import type { ProviderTelemetry } from '../../providers/provider-descriptor';
import type { ChatResponse } from '../../handler/types';
import type { MessagePart } from '../../parts/types';
import { stringifyJson } from '../../wire/stringify-json';

/** A GenAI message part (semconv `gen-ai-output-messages.json`). */
type GenAIPart = Readonly<Record<string, unknown>>;

const FINISH: Readonly<Record<string, string>> = { STOP: 'stop', LENGTH: 'length', TOOL_EXECUTION: 'tool_call', CONTENT_FILTER: 'content_filter' };

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

function toolArguments(text: string | null, max: number): unknown {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
  } catch {
    // Not JSON (an incomplete call): the text as it came.
  }
  return clip(text, max);
}

/** One message part as a GenAI part; opaque payloads (signatures, encrypted reasoning) are never included. */
function outputPart(part: MessagePart, max: number): GenAIPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', content: clip(part.text, max) };
    case 'reasoning':
      return { type: 'reasoning', content: clip(part.text ?? part.summary ?? '', max) };
    case 'tool_call':
      return { type: 'tool_call', id: part.toolCall.id, name: part.toolCall.name, arguments: toolArguments(part.toolCall.arguments, max) };
    case 'media':
      return { type: 'blob', modality: part.media.mimeType.split('/')[0] ?? 'unknown', mime_type: part.media.mimeType };
    case 'unknown':
      return { type: part.kind };
    default:
      return { type: part.type };
  }
}

/**
 * `gen_ai.output.messages` for a stream's final (or partial) response: one assistant message
 * whose parts follow the response's, with `finish_reason` in v1.41 mode (`error` for a failed or
 * cancelled stream). Text is cut at `max` characters a part; the JSON structure is kept.
 */
export function outputMessages(response: ChatResponse, completed: boolean, withFinishReason: boolean, max: number): string {
  const parts = response.aiMessage.parts.map((part) => outputPart(part, max));
  const message: Record<string, unknown> = { role: 'assistant', parts };
  if (withFinishReason) {
    const reason = response.metadata.finishReason;
    message.finish_reason = !completed ? 'error' : reason === null ? 'stop' : (FINISH[reason] ?? response.metadata.providerFinishReason ?? 'stop');
  }
  return stringifyJson([message]) as string;
}

type Fields = Readonly<Record<string, unknown>>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text parts of a content value: a string, or an array of blocks with `text` (others become `{type}`). */
function contentParts(content: unknown, max: number): GenAIPart[] {
  if (typeof content === 'string') return [{ type: 'text', content: clip(content, max) }];
  if (!Array.isArray(content)) return [];
  return content.map((block: unknown): GenAIPart => {
    if (typeof block === 'string') return { type: 'text', content: clip(block, max) };
    if (!isFields(block)) return { type: 'unknown' };
    if (typeof block.text === 'string' && block.thought !== true) return { type: 'text', content: clip(block.text, max) };
    const type = typeof block.type === 'string' ? block.type : (Object.keys(block).find((key) => key !== 'thoughtSignature') ?? 'unknown');
    return { type };
  });
}

/** `gen_ai.input.messages` and `gen_ai.system_instructions` of a request body as sent (null when there is none). */
export function inputContent(provider: ProviderTelemetry | null, request: unknown, max: number): { readonly input: string | null; readonly system: string | null } {
  if (!isFields(request)) return { input: null, system: null };
  // The provider says where its history and system instructions are; `messages` for one that does not.
  const read = provider?.requestMessages?.(request) ?? { messages: Array.isArray(request.messages) ? (request.messages as readonly unknown[]) : [], system: undefined };
  const messages = read.messages.map((entry: unknown) => {
    if (!isFields(entry)) return { role: 'user', parts: [] };
    const role = typeof entry.role === 'string' ? entry.role : typeof entry.type === 'string' ? entry.type : 'user';
    return { role, parts: contentParts(entry.content, max) };
  });
  const system = contentParts(read.system, max);
  return { input: messages.length === 0 ? null : (stringifyJson(messages) as string), system: system.length === 0 ? null : (stringifyJson(system) as string) };
}
