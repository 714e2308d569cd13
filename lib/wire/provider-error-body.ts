import { isJsonObject, nonBlankString, type JsonObject } from './read-json';
import { stringifyJson } from './stringify-json';

/** What a provider's error says. */
export interface ProviderErrorDetails {
  /** The provider's own message; the error as JSON text when it sent none. */
  readonly message: string;
  /** The provider's error code or type (`invalid_api_key`, `authentication_error`, `NOT_FOUND` …), when it sent one. */
  readonly code: string | undefined;
  /** An HTTP status the error itself names (Gemini's and vLLM's numeric `code`), when it names one. */
  readonly status: number | undefined;
  /** The error as sent: the `error` member (an object or a text), or the flat error object itself. */
  readonly error: unknown;
}

/** The message of an error that sends none and cannot be shown as JSON text. */
const NO_MESSAGE = 'The provider reported an error';

/** `type: "error"` marks the flat shape (`{"type": "error", "message"}`); it is no error code. */
function codeOf(error: JsonObject): string | undefined {
  const type = nonBlankString(error.type);
  return nonBlankString(error.code) ?? nonBlankString(error.status) ?? (type === 'error' ? null : type) ?? undefined;
}

function statusOf(code: unknown): number | undefined {
  return typeof code === 'number' && Number.isInteger(code) && code >= 100 && code <= 599 ? code : undefined;
}

function fromErrorObject(error: JsonObject): ProviderErrorDetails {
  return {
    message: nonBlankString(error.message) ?? stringifyJson(error) ?? NO_MESSAGE,
    code: codeOf(error),
    status: statusOf(error.code),
    error,
  };
}

/**
 * Reads a provider's error — the one reader for HTTP error bodies, a body sniffed in place of a
 * stream, and every in-stream error event — in the shapes the providers send:
 * `{"error": {"message", "code" | "status" | "type"}}` (OpenAI, Anthropic, Gemini; also wrapped in
 * a one-element array), `{"error": "text"}` (Ollama, some gateways), a flat
 * `{"object": "error" | "type": "error", "message", "code", "type"}` (vLLM, Anthropic and
 * Responses error events) and `{"detail": "text"}`. The message is the provider's non-blank
 * `message` (else the error as JSON text); the code its non-blank string `code`, else `status`,
 * else `type` (other than the flat shape's marker `error`); the status an integer `code` from 100
 * to 599. Null when the value holds no error.
 */
export function providerErrorDetails(body: unknown): ProviderErrorDetails | null {
  const value = Array.isArray(body) && body.length === 1 ? (body[0] as unknown) : body;
  if (!isJsonObject(value)) return null;
  const error = value.error;
  const text = nonBlankString(error);
  if (text !== null) return { message: text, code: undefined, status: undefined, error };
  if (isJsonObject(error)) return fromErrorObject(error);
  if (value.object === 'error' || value.type === 'error') return fromErrorObject(value);
  const detail = nonBlankString(value.detail);
  if (detail !== null) return { message: detail, code: undefined, status: undefined, error: value };
  return null;
}
