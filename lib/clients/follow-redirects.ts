import { StreamError } from '../handler/stream-error';
import { describeOrigin } from './secrets';

/** The most redirects one request follows, as `fetch` does. */
export const MAX_REDIRECTS = 20;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Lets a response's body go unread (a redirect's, a response to be retried) so that its connection is freed. */
export function discard(response: Response): void {
  try {
    response.body?.cancel().catch(() => undefined);
  } catch {
    // A body that is locked or already gone holds nothing to free.
  }
}

function refused(response: Response, provider: string, why: string): StreamError {
  return new StreamError('http', `HTTP ${response.status} from ${provider}: ${why}`, { status: response.status });
}

/**
 * Sends a request with `fetch`, following redirects itself (`redirect: 'manual'`) so that the
 * request's headers — the API key among them — never leave the origin they were meant for:
 * - a 307 or 308 to the same origin is followed with the same method, headers and body, at most
 *   `MAX_REDIRECTS` times;
 * - a redirect to another origin fails as an `http` StreamError with the status, naming that
 *   origin (`scheme://host:port`, never its path, query or credentials);
 * - a 301, 302 or 303 fails likewise: fetch would turn the POST into a GET without its body, which
 *   no chat endpoint answers; point `baseUrl` at the new location instead;
 * - a redirect without a `Location` is returned as it is (an error status for the caller).
 * A failing `fetch` rejects as it did. `seen` is told of every response, the redirects included.
 */
export async function fetchSameOrigin(fetchImpl: typeof globalThis.fetch, url: string, init: RequestInit, provider: string, seen?: (response: Response) => void): Promise<Response> {
  let target = url;
  for (let followed = 0; ; followed++) {
    const response = await fetchImpl(target, { ...init, redirect: 'manual' });
    seen?.(response);
    if (response.type === 'opaqueredirect') {
      discard(response);
      throw refused(response, provider, 'a redirect whose target this fetch hides (an opaque redirect) is not followed; point baseUrl at the new location');
    }
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    discard(response);
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      throw refused(response, provider, 'a redirect whose Location is not a URL is not followed');
    }
    const from = new URL(target);
    if (next.origin === 'null' || next.origin !== from.origin) {
      throw refused(
        response,
        provider,
        `a redirect to another origin (${describeOrigin(next)}) is not followed, so that the API key and headers are not sent there; point baseUrl at it if it is to be trusted`,
      );
    }
    if (next.username !== '' || next.password !== '') {
      throw refused(response, provider, 'a redirect to a URL with credentials (user:password@) is not followed');
    }
    if (response.status !== 307 && response.status !== 308) {
      throw refused(response, provider, `a ${response.status} redirect would turn the POST into a GET without its body, so it is not followed; point baseUrl at the new location`);
    }
    if (followed === MAX_REDIRECTS) throw refused(response, provider, `more than ${MAX_REDIRECTS} redirects; not followed further`);
    target = next.href;
  }
}
