import { describeError } from '../handler/describe-error';
import { providerErrorDetails } from '../wire/provider-error-body';
import { StreamError } from '../handler/stream-error';
import { decodingFailure, describeEncoding } from './body-decoding';
import { redactError, redactJson, redactText } from './secrets';

/** The most of an error body that is read (the rest is let go). */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * The longest an error body is waited for (3 s): a body that trickles or never ends must not hide
 * the status, so past this the error is reported with what arrived.
 */
export const ERROR_BODY_TIME_LIMIT_MS = 3000;

/** How an error body is read and reported. */
export interface ErrorBodyReading {
  /** Stop reading after this long (`ERROR_BODY_TIME_LIMIT_MS` by default). */
  readonly timeLimitMs?: number;
  /** Strings replaced by `[redacted]` wherever the body would show them (a server may echo the key back). */
  readonly secrets?: readonly string[];
}

/** What could be read of a body; `problem` says why the reading stopped short (null when the body ended or filled the limit). */
interface BodyText {
  readonly text: string;
  readonly problem: string | null;
  readonly cause: unknown;
}

/**
 * Reads at most `MAX_ERROR_BODY` characters of a response body as text, for at most
 * `timeLimitMs`, then lets the body go. Never rejects: a body that is cut off, cannot be
 * decompressed or is too slow yields what arrived and the reason.
 */
async function readBodyText(response: Response, timeLimitMs: number): Promise<BodyText> {
  if (response.body === null) return { text: '', problem: null, cause: undefined };
  // A fetch Response's body is bytes; Node's typings leave its chunk type `any`.
  const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let text = '';
  let timedOut = false;
  // Cancelling the reader settles the pending read at once (done), which ends the loop below.
  const timer = setTimeout(
    () => {
      timedOut = true;
      reader.cancel().catch(() => undefined);
    },
    Math.max(0, timeLimitMs),
  );
  try {
    while (text.length < MAX_ERROR_BODY) {
      const { done, value } = await reader.read();
      if (timedOut) return { text: text + decoder.decode(), problem: `the error body was still arriving after ${Math.round(timeLimitMs)} ms`, cause: undefined };
      if (done) return { text: text + decoder.decode(), problem: null, cause: undefined };
      text += decoder.decode(value, { stream: true });
    }
    return { text, problem: null, cause: undefined };
  } catch (error) {
    text += decoder.decode();
    const failure = decodingFailure(error);
    if (failure !== null) {
      return { text, problem: `the error body could not be decoded (content-encoding ${describeEncoding(response)}): ${describeError(failure)}`, cause: failure };
    }
    return { text, problem: `the error body was cut off: ${describeError(error)}`, cause: error };
  } finally {
    clearTimeout(timer);
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

/** The body read and redacted: its text, its JSON when it parses, and why reading stopped short. */
async function readRedacted(response: Response, reading: ErrorBodyReading): Promise<BodyText & { readonly json: unknown }> {
  const secrets = reading.secrets ?? [];
  const read = await readBodyText(response, reading.timeLimitMs ?? ERROR_BODY_TIME_LIMIT_MS);
  const text = redactText(read.text, secrets);
  // Redacting the text misses a key the server escaped in JSON (`\u0073k-…`); the parsed value is redacted too.
  const json = redactJson(parseJson(text), secrets);
  return {
    text,
    json,
    problem: read.problem === null ? null : redactText(read.problem, secrets),
    cause: read.cause === undefined ? undefined : redactError(read.cause, secrets),
  };
}

/**
 * The `StreamError` (kind `http`) for a response with an error status: it carries the status, the
 * parsed JSON body (or the text when it is not JSON) and the provider's error code, and its message
 * names the status, the provider and the provider's own message. The body is read within a size
 * and a time limit; when it is slow, cut off or cannot be decompressed, the error still reports the
 * status, with what arrived and (in the message and `cause`) why the rest did not. `secrets` are
 * redacted from the body and the message.
 */
export async function httpStatusError(response: Response, provider: string, reading: ErrorBodyReading = {}): Promise<StreamError> {
  const { text, json, problem, cause } = await readRedacted(response, reading);
  const details = json === undefined ? null : providerErrorDetails(json);
  const status = `HTTP ${response.status}${response.statusText === '' ? '' : ` ${redactText(response.statusText, reading.secrets ?? [])}`}`;
  const said = details !== null ? details.message : text.trim() === '' ? 'no error body' : snippet(text);
  return new StreamError('http', `${status} from ${provider}: ${said}${problem === null ? '' : ` (${problem})`}`, {
    status: response.status,
    body: json === undefined ? text : json,
    code: details?.code,
    cause,
  });
}

/** The `StreamError` (kind `format`) for a successful response whose content type is an HTML page, not a stream. */
export async function htmlResponseError(response: Response, provider: string, expected: string, reading: ErrorBodyReading = {}): Promise<StreamError> {
  const { text, problem, cause } = await readRedacted(response, reading);
  return new StreamError(
    'format',
    `Expected ${expected} from ${provider}, got an HTML page (HTTP ${response.status}, content-type ${response.headers.get('content-type') ?? 'none'}): ${snippet(text)}${problem === null ? '' : ` (${problem})`}`,
    { status: response.status, body: text, cause },
  );
}
