import { isJsonObject, type JsonObject } from './read-json';
import { stringifyJson } from './stringify-json';

/** What a provider's error body says. */
export interface ProviderErrorDetails {
  /** The provider's own message. */
  readonly message: string;
  /** The provider's error code or type (`invalid_api_key`, `authentication_error`, `NOT_FOUND` …), when it sent one. */
  readonly code: string | undefined;
  /** An HTTP status the body itself names (Gemini's `error.code`), when it names one. */
  readonly status: number | undefined;
}

function stringField(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function fromErrorObject(error: JsonObject, fallbackMessage: string): ProviderErrorDetails {
  const numericCode = error.code;
  return {
    message: stringField(error, 'message') ?? fallbackMessage,
    code: stringField(error, 'code') ?? stringField(error, 'status') ?? stringField(error, 'type'),
    status: typeof numericCode === 'number' && Number.isInteger(numericCode) && numericCode >= 100 && numericCode <= 599 ? numericCode : undefined,
  };
}

/**
 * Reads the error out of a parsed error body, in the shapes the providers send:
 * `{"error": {"message", "type" | "code" | "status"}}` (OpenAI, Anthropic, Gemini — also wrapped in
 * a one-element array), `{"error": "text"}` (Ollama), `{"object": "error", "message"}` (vLLM) and
 * `{"detail": "text"}`. Null when the value is not an error body.
 */
export function providerErrorDetails(body: unknown): ProviderErrorDetails | null {
  const value = Array.isArray(body) && body.length === 1 ? (body[0] as unknown) : body;
  if (!isJsonObject(value)) return null;
  const error = value.error;
  if (typeof error === 'string' && error.trim() !== '') return { message: error, code: undefined, status: undefined };
  if (isJsonObject(error)) return fromErrorObject(error, stringifyJson(error) ?? 'The provider reported an error');
  if (value.object === 'error' || value.type === 'error') {
    const message = stringField(value, 'message');
    if (message !== undefined) return fromErrorObject(value, message);
  }
  const detail = stringField(value, 'detail');
  if (detail !== undefined) return { message: detail, code: undefined, status: undefined };
  return null;
}
