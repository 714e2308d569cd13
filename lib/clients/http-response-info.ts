import { redactText } from './secrets';

/** What an HTTP client saw of the response, on the outcome as `outcome.http`. */
export interface HttpResponseInfo {
  /** The response's status (of the last response, after same-origin redirects and retries). */
  readonly status: number;
  /**
   * The response's headers as a frozen plain object with lower-case names; a header sent more
   * than once (`set-cookie`) has its values joined with `, `.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The provider's request id (`x-request-id`, else `request-id`), or null when it sent none. */
  readonly requestId: string | null;
}

/**
 * A `HttpResponseInfo` for a response. Header values are the server's (untrusted, but bounded by
 * the HTTP stack's header size limit); a secret a server echoes back in one is redacted.
 */
export function httpResponseInfo(response: Response, secrets: readonly string[]): HttpResponseInfo {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    const clean = secrets.length === 0 ? value : redactText(value, secrets);
    // defineProperty: a header named `__proto__` stays a plain own key.
    const previous = Object.prototype.hasOwnProperty.call(headers, name) ? headers[name] : undefined;
    Object.defineProperty(headers, name, { value: previous === undefined ? clean : `${previous}, ${clean}`, enumerable: true, writable: true, configurable: true });
  });
  const requestId = response.headers.get('x-request-id') ?? response.headers.get('request-id');
  return Object.freeze({
    status: response.status,
    headers: Object.freeze(headers),
    requestId: requestId === null ? null : secrets.length === 0 ? requestId : redactText(requestId, secrets),
  });
}
