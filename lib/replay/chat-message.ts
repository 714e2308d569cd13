import type { AiMessage, ToolExecutionRequest } from '../handler/types';
import { aiMessage, toolExecutionRequest } from '../handler/values';
import { describeValue } from '../parts/describe-value';
import { partsFromJSON, partsToJSON } from '../parts/json';
import type { MediaPart, MessagePart, TextPart } from '../parts/types';
import { isPlainObject, requirePartShape, validateAttributes } from '../parts/validate';
import { checkMessageParts } from './check-message-part';

/** Instructions for the model (a system prompt). */
export interface SystemMessage {
  readonly type: 'system';
  readonly text: string;
}

/** What the user says: a string, or text and media parts in order. */
export interface UserMessage {
  readonly type: 'user';
  readonly content: string | readonly (TextPart | MediaPart)[];
}

/** The result of running one tool call the model asked for, sent back in the next request. */
export interface ToolExecutionResultMessage {
  readonly type: 'tool_execution_result';
  /** The call this result answers (its id and name go back to the provider). */
  readonly request: ToolExecutionRequest;
  /** The result as given: a string, or parts (text, media). */
  readonly content: string | readonly MessagePart[];
  readonly isError: boolean;
}

/** One message of a conversation, discriminated on `type`; `AiMessage` is a final response's `aiMessage` as it is. */
export type ChatMessage = SystemMessage | UserMessage | AiMessage | ToolExecutionResultMessage;

/** The `type` names of the four message kinds. */
export type ChatMessageType = ChatMessage['type'];

function requireText(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new TypeError(`Expected ${field} to be a string, got ${describeValue(value)}`);
  return value;
}

function partList<T extends MessagePart>(value: readonly unknown[], field: string, allowed: ReadonlySet<string> | null): readonly T[] {
  return Object.freeze(
    value.map((item, i) => {
      const part = requirePartShape(item, `${field}[${i}]`);
      if (allowed !== null && !allowed.has(part.type)) {
        throw new TypeError(`Expected ${field}[${i}] to be a ${[...allowed].join(' or ')} part, got a ${part.type} part`);
      }
      return part as T;
    }),
  );
}

const USER_PART_TYPES: ReadonlySet<string> = new Set(['text', 'media']);

/** A frozen `SystemMessage`; throws a `TypeError` when `text` is not a string. */
export function systemMessage(text: string): SystemMessage {
  return Object.freeze({ type: 'system', text: requireText(text, 'systemMessage text') });
}

/**
 * A frozen `UserMessage` of a string or of text and media parts (kept in order, the array copied
 * and frozen); throws a `TypeError` naming the offending part otherwise.
 */
export function userMessage(content: string | readonly (TextPart | MediaPart)[]): UserMessage {
  if (typeof content === 'string') return Object.freeze({ type: 'user', content });
  if (!Array.isArray(content)) throw new TypeError(`Expected userMessage content to be a string or an array of parts, got ${describeValue(content)}`);
  return Object.freeze({ type: 'user', content: partList<TextPart | MediaPart>(content, 'userMessage content', USER_PART_TYPES) });
}

/**
 * A frozen `ToolExecutionResultMessage` answering `request` (validated like `toolExecutionRequest`)
 * with a string or parts; `isError` (default false) marks a failed execution. Throws a `TypeError`
 * naming the field that is wrong.
 */
export function toolExecutionResultMessage(request: ToolExecutionRequest, result: string | readonly MessagePart[], options: { isError?: boolean | undefined } = {}): ToolExecutionResultMessage {
  const req = toolExecutionRequest(request);
  let content: string | readonly MessagePart[];
  if (typeof result === 'string') content = result;
  else if (Array.isArray(result)) content = partList(result, 'toolExecutionResultMessage result', null);
  else throw new TypeError(`Expected toolExecutionResultMessage result to be a string or an array of parts, got ${describeValue(result)}`);
  if (options === null || typeof options !== 'object') throw new TypeError(`Expected toolExecutionResultMessage options to be an object, got ${describeValue(options)}`);
  const isError = options.isError ?? false;
  if (typeof isError !== 'boolean') throw new TypeError(`Expected toolExecutionResultMessage options.isError to be a boolean, got ${describeValue(isError)}`);
  return Object.freeze({ type: 'tool_execution_result', request: req, content, isError });
}

/** `string | parts` content of a user message or a tool result, checked (see `requireChatMessage`). */
function checkContent(value: unknown, field: string, allowed: ReadonlySet<string> | null): void {
  if (typeof value === 'string') return;
  if (!Array.isArray(value)) throw new TypeError(`Expected ${field} to be a string or an array of parts, got ${describeValue(value)}`);
  checkMessageParts(value, field, allowed);
}

/**
 * Throws a `TypeError` naming `field` and the member that is wrong (`… messages[2].parts[0].text`)
 * unless `value` is one of the four messages with every field the replay converters read of the
 * type it must have (SPEC §3, §12): a system text; user content as a string or text and media
 * parts; an `ai` message's parts and string attributes; a tool result's request `{id, name,
 * arguments}`, content and `isError`. Parts are checked field by field. Nothing is copied.
 */
function requireChatMessage(value: unknown, field: string): ChatMessage {
  if (!isPlainObject(value)) throw new TypeError(`Expected ${field} to be a chat message, got ${describeValue(value)}`);
  switch (value.type) {
    case 'system':
      requireText(value.text, `${field}.text`);
      break;
    case 'user':
      checkContent(value.content, `${field}.content`, USER_PART_TYPES);
      break;
    case 'ai':
      checkMessageParts(value.parts, `${field}.parts`);
      if (!isPlainObject(value.attributes)) throw new TypeError(`Expected ${field}.attributes to be an object of strings, got ${describeValue(value.attributes)}`);
      for (const key of Object.keys(value.attributes)) requireText(value.attributes[key], `${field}.attributes.${key}`);
      break;
    case 'tool_execution_result': {
      const request = value.request;
      if (!isPlainObject(request)) throw new TypeError(`Expected ${field}.request to be a tool execution request {id, name, arguments}, got ${describeValue(request)}`);
      if (request.id !== null && typeof request.id !== 'string') throw new TypeError(`Expected ${field}.request.id to be a string or null, got ${describeValue(request.id)}`);
      requireText(request.name, `${field}.request.name`);
      requireText(request.arguments, `${field}.request.arguments`);
      checkContent(value.content, `${field}.content`, null);
      if (typeof value.isError !== 'boolean') throw new TypeError(`Expected ${field}.isError to be a boolean, got ${describeValue(value.isError)}`);
      break;
    }
    default:
      throw new TypeError(`Expected ${field}.type to be 'system', 'user', 'ai' or 'tool_execution_result', got ${describeValue(value.type)}`);
  }
  return value as unknown as ChatMessage;
}

/**
 * Throws a `TypeError` unless `messages` is an array of chat messages (see `requireChatMessage`);
 * the error names `where`, the message's index and the field. The one check every replay
 * converter makes before it reads a message.
 */
export function requireChatMessages(messages: unknown, where: string): readonly ChatMessage[] {
  if (!Array.isArray(messages)) throw new TypeError(`Expected ${where} messages to be an array, got ${describeValue(messages)}`);
  for (let i = 0; i < messages.length; i++) requireChatMessage(messages[i], `${where} messages[${i}]`);
  return messages as readonly ChatMessage[];
}

function contentToJSON(content: string | readonly MessagePart[]): unknown {
  return typeof content === 'string' ? content : partsToJSON(content);
}

/**
 * A JSON-safe form of a conversation (parts as `partsToJSON` writes them, media bytes as base64),
 * which `messagesFromJSON` reads back into equal messages.
 */
export function messagesToJSON(messages: readonly ChatMessage[]): Array<Record<string, unknown>> {
  return requireChatMessages(messages, 'messagesToJSON').map((m): Record<string, unknown> => {
    switch (m.type) {
      case 'system':
        return { type: 'system', text: m.text };
      case 'user':
        return { type: 'user', content: contentToJSON(m.content) };
      case 'ai':
        return { type: 'ai', parts: partsToJSON(m.parts), attributes: { ...m.attributes } };
      case 'tool_execution_result':
        return { type: 'tool_execution_result', request: { ...m.request }, content: contentToJSON(m.content), isError: m.isError };
      default:
        throw new TypeError(`Expected a chat message, got ${describeValue(m satisfies never)}`);
    }
  });
}

function contentFromJSON(value: unknown, field: string): string | MessagePart[] {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw new TypeError(`Expected ${field} to be a string or an array of parts, got ${describeValue(value)}`);
  return partsFromJSON(value);
}

/**
 * Reads what `messagesToJSON` wrote (e.g. after `JSON.parse`) back into validated, frozen
 * messages; an `ai` message is rebuilt with `aiMessage`, so its text and tool-call views are
 * derived again. Throws a `TypeError` naming the message and field that are wrong.
 */
export function messagesFromJSON(json: unknown): ChatMessage[] {
  if (!Array.isArray(json)) throw new TypeError(`Expected messagesFromJSON input to be an array, got ${describeValue(json)}`);
  return json.map((item: unknown, i): ChatMessage => {
    const field = `messages[${i}]`;
    if (!isPlainObject(item)) throw new TypeError(`Expected ${field} to be an object, got ${describeValue(item)}`);
    switch (item.type) {
      case 'system':
        return systemMessage(requireText(item.text, `${field}.text`));
      case 'user':
        return userMessage(contentFromJSON(item.content, `${field}.content`) as string | Array<TextPart | MediaPart>);
      case 'ai':
        if (!Array.isArray(item.parts)) throw new TypeError(`Expected ${field}.parts to be an array, got ${describeValue(item.parts)}`);
        return aiMessage(Object.freeze(partsFromJSON(item.parts)), validateAttributes(item.attributes ?? {}, `${field}.attributes`));
      case 'tool_execution_result': {
        if (item.isError !== undefined && typeof item.isError !== 'boolean') {
          throw new TypeError(`Expected ${field}.isError to be a boolean, got ${describeValue(item.isError)}`);
        }
        const request = item.request as ToolExecutionRequest;
        return toolExecutionResultMessage(request, contentFromJSON(item.content, `${field}.content`), { isError: item.isError === true });
      }
      default:
        throw new TypeError(`Expected ${field}.type to be 'system', 'user', 'ai' or 'tool_execution_result', got ${describeValue(item.type)}`);
    }
  });
}
