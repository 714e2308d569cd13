import type { StreamingChatResponseHandler } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import type { WireFormat } from '../wire/types';
import { resolveEndpoint, type EndpointOptions, type EndpointRule } from './client-endpoint';
import { resolveApiKey } from './api-key';
import type { ClientEnvironmentVariable } from './environment';
import { checkHttpClientOptions, streamHttp, type HttpStreamOutcome } from './stream-http';

/** How a provider takes its API key: in this header, after this prefix (`Bearer ` or nothing). */
export interface AuthHeader {
  readonly header: string;
  readonly prefix: string;
}

/** What one provider's HTTP client is made of: plain facts, plus how its request becomes a path and a body. */
export interface ClientSpec<R extends { readonly model: string }> {
  /** The wire format of the response body. */
  readonly format: WireFormat;
  /** The provider's name, for error messages. */
  readonly provider: string;
  /** The request's name in the `TypeError` for one without a model (`an Anthropic` …). */
  readonly requestName: string;
  /** Where the API lives. */
  readonly endpoint: EndpointRule;
  /** The endpoint's path under the API version; Gemini's names the model. Called once the request was checked. */
  readonly path: string | ((request: R) => string);
  /** The environment variables the SDK reads the API key from, in order (none: only `apiKey`). */
  readonly apiKeyEnv: readonly ClientEnvironmentVariable[];
  /** How the API key is sent. */
  readonly auth: AuthHeader;
  /** The provider's own headers besides the key (`anthropic-version`); `options.headers` override them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body for a (checked) request: its fields, `extraBody`'s, then the client's own (`stream: true`). */
  readonly body: (request: R) => Readonly<Record<string, unknown>>;
}

/**
 * Streams `request` to the provider `spec` describes: checks the request and options, resolves the
 * endpoint and the API key (option, else environment, else default / none), sends the key as the
 * provider expects and drives `handler` with the response through `streamHttp` (retries, errors,
 * cancel and the outcome as it describes). Misuse rejects the promise with a `TypeError` before
 * anything is sent: a request without a `model` string, options of the wrong kind, and no API key
 * for a provider that needs one (see `resolveApiKey`).
 */
export function streamClient<R extends { readonly model: string }>(
  spec: ClientSpec<R>,
  request: R,
  handler: StreamingChatResponseHandler,
  options: EndpointOptions,
): Promise<HttpStreamOutcome> {
  try {
    return sendClientRequest(spec, request, handler, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function sendClientRequest<R extends { readonly model: string }>(
  spec: ClientSpec<R>,
  request: R,
  handler: StreamingChatResponseHandler,
  options: EndpointOptions,
): Promise<HttpStreamOutcome> {
  if (typeof request !== 'object' || request === null || typeof (request as { model?: unknown }).model !== 'string') {
    throw new TypeError(`Expected ${spec.requestName} request with a model name, got ${describeValue(request)}`);
  }
  checkHttpClientOptions(options);
  const path = typeof spec.path === 'string' ? spec.path : spec.path(request);
  const endpoint = resolveEndpoint(options, spec.endpoint, path);
  const apiKey = resolveApiKey({ provider: spec.provider, env: spec.apiKeyEnv, header: spec.auth.header }, options.apiKey, options.headers);
  const headers = apiKey === undefined ? spec.headers : { ...spec.headers, [spec.auth.header]: `${spec.auth.prefix}${apiKey.value}` };
  return streamHttp(
    { format: spec.format, provider: spec.provider, url: endpoint.url, urlFrom: endpoint.from, apiKey, headers, body: spec.body(request), model: request.model },
    handler,
    options,
  );
}
