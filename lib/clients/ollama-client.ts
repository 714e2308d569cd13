import type { StreamingChatResponseHandler } from '../handler/types';
import { resolveEndpoint } from './client-endpoint';
import type { OllamaRequest } from './ollama-request';
import { requestBody } from './request-types';
import { checkModelRequest, streamHttp, type HttpClientOptions, type HttpStreamOutcome } from './stream-http';

/** Where a local Ollama listens: the default `host`, as in Ollama's SDK. */
export const OLLAMA_HOST = 'http://127.0.0.1:11434';
/** @deprecated The older name of `OLLAMA_HOST`. */
export const OLLAMA_BASE_URL = OLLAMA_HOST;

/** Options of `streamOllama`. */
export interface OllamaClientOptions extends HttpClientOptions {
  /**
   * Where Ollama listens, as its SDK takes it: `OLLAMA_HOST` when not given, else
   * `http://127.0.0.1:11434`. A host without a scheme gets `http://`, one without a port gets 11434
   * (`0.0.0.0`, `example.com:8080`, `:11435`), as Ollama's own SDK and CLI read it.
   */
  readonly host?: string | undefined;
}

/**
 * A host as Ollama's SDK reads it: `http://` when no scheme is given, port 11434 when neither a
 * scheme nor a port is, `127.0.0.1` when only `:port` is. Anything else is returned as given.
 */
export function formatOllamaHost(host: string): string {
  const withHost = host.startsWith(':') ? `http://127.0.0.1${host}` : host;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(withHost)) return withHost;
  // No scheme: add one, and Ollama's port when none is given (bracketed IPv6 keeps its colons).
  const hasPort = /:\d+(\/|$)/.test(withHost.replace(/^\[[^\]]*\]/, ''));
  const slash = withHost.indexOf('/');
  const authority = slash === -1 ? withHost : withHost.slice(0, slash);
  const rest = slash === -1 ? '' : withHost.slice(slash);
  return `http://${authority}${hasPort ? '' : ':11434'}${rest}`;
}

/**
 * Streams a chat from Ollama: POST `{host}/api/chat` with `stream: true`; no key by default
 * (`Authorization: Bearer` when `apiKey` is given, for hosted Ollama). Resolves with the outcome
 * (`http` on it once a response arrived); see `streamHttp` for retries, errors and cancel.
 */
export function streamOllama(request: OllamaRequest, handler: StreamingChatResponseHandler, options: OllamaClientOptions = {}): Promise<HttpStreamOutcome> {
  checkModelRequest(request, 'an Ollama chat', options);
  const endpoint = resolveEndpoint(options, {
    option: 'host',
    value: options.host,
    env: 'OLLAMA_HOST',
    defaultBase: OLLAMA_HOST,
    normalize: formatOllamaHost,
    path: 'api/chat',
    legacyPath: 'api/chat',
  });
  const apiKey = options.apiKey === undefined ? undefined : { value: options.apiKey, from: 'apiKey' };
  return streamHttp(
    {
      format: 'ollama',
      provider: 'Ollama',
      url: endpoint.url,
      urlFrom: endpoint.from,
      apiKey,
      headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey.value}` },
      body: requestBody(request, { stream: true }),
    },
    handler,
    options,
  );
}
