import type { StreamingChatResponseHandler } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import { checkDescriptor } from '../driver/format-choice';
import type { ProviderDescriptor } from '../providers/provider-descriptor';
import { resolveEndpoint, type EndpointOptions } from './client-endpoint';
import { resolveApiKey } from './api-key';
import { checkHttpClientOptions, streamHttp, type HttpStreamOutcome } from './stream-http';

export type { AuthHeader, ProviderClientSpec } from '../providers/provider-descriptor';

/**
 * Streams `request` to the provider `descriptor` describes (SPEC §15), through the same machinery
 * as partstream's own clients: checks the request and options, resolves the endpoint and the API
 * key (option, else environment, else default / none), sends the key as the provider expects and
 * drives `handler` with the response through `streamHttp` (retries, redirects, limits, secrets,
 * cancel and the outcome's `http`). Misuse rejects the promise with a `TypeError` before anything
 * is sent: a descriptor without a `client`, a request without its model field, options of the
 * wrong kind, and no API key for a provider that needs one.
 */
export function streamProvider<R extends object>(
  descriptor: ProviderDescriptor<string, unknown, R, unknown>,
  request: R,
  handler: StreamingChatResponseHandler,
  options: EndpointOptions = {},
): Promise<HttpStreamOutcome> {
  try {
    return sendClientRequest(descriptor, request, handler, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function sendClientRequest<R extends object>(
  descriptor: ProviderDescriptor<string, unknown, R, unknown>,
  request: R,
  handler: StreamingChatResponseHandler,
  options: EndpointOptions,
): Promise<HttpStreamOutcome> {
  checkDescriptor(descriptor, 'the provider');
  const spec = descriptor.client;
  if (spec === null || typeof spec !== 'object') throw new TypeError(`Expected a provider with an HTTP client (its descriptor's client), got ${describeValue(spec)} for ${descriptor.format}`);
  const model: unknown = typeof request === 'object' && request !== null ? (request as Record<string, unknown>)[spec.modelField] : undefined;
  if (typeof model !== 'string') {
    throw new TypeError(`Expected ${spec.requestName} request with a model name${spec.modelField === 'model' ? '' : ` (${spec.modelField})`}, got ${describeValue(request)}`);
  }
  checkHttpClientOptions(options);
  const path = typeof spec.path === 'string' ? spec.path : spec.path(request);
  const endpoint = resolveEndpoint(options, spec.endpoint, path);
  const apiKey = resolveApiKey({ provider: spec.provider, env: spec.apiKeyEnv, header: spec.auth.header, optional: spec.keyOptional }, options.apiKey, options.headers);
  const headers = apiKey === undefined ? spec.headers : { ...spec.headers, [spec.auth.header]: `${spec.auth.prefix}${apiKey.value}` };
  return streamHttp({ format: descriptor, provider: spec.provider, url: endpoint.url, urlFrom: endpoint.from, apiKey, headers, body: spec.body(request), model }, handler, options);
}
