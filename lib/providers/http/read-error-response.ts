import { providerErrorDetails } from '../decode/provider-error-body';
import { StreamError } from '../stream-error';

/** The most of an error body that is read (the rest is let go). */
const MAX_ERROR_BODY = 64 * 1024;

/** Reads at most `MAX_ERROR_BODY` bytes of a response body as text, then lets the body go. */
export async function readBodyText(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < MAX_ERROR_BODY) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
    return text;
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

/**
 * The `StreamError` (kind `http`) for a response with an error status: it carries the status, the
 * parsed JSON body (or the text when it is not JSON) and the provider's error code, and its message
 * names the status, the provider and the provider's own message.
 */
export async function httpStatusError(response: Response, provider: string): Promise<StreamError> {
  const text = await readBodyText(response);
  const json = parseJson(text);
  const details = json === undefined ? null : providerErrorDetails(json);
  const status = `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  const said = details !== null ? details.message : text.trim() === '' ? 'no error body' : snippet(text);
  return new StreamError('http', `${status} from ${provider}: ${said}`, {
    status: response.status,
    body: json === undefined ? text : json,
    code: details?.code,
  });
}

/** The `StreamError` (kind `format`) for a successful response whose content type is an HTML page, not a stream. */
export async function htmlResponseError(response: Response, provider: string, expected: string): Promise<StreamError> {
  const text = await readBodyText(response);
  return new StreamError(
    'format',
    `Expected ${expected} from ${provider}, got an HTML page (HTTP ${response.status}, content-type ${response.headers.get('content-type') ?? 'none'}): ${snippet(text)}`,
    { status: response.status, body: text },
  );
}
