import type { StreamingChatResponseHandler } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import { bedrockConverseProvider } from '../providers/bedrock-converse/bedrock-converse-descriptor';
import type { ConverseStreamRequest } from '../providers/bedrock-converse/bedrock-converse-request';
import { bedrockRegion, bedrockRuntimeBaseUrl } from '../providers/bedrock-converse/bedrock-endpoint';
import { resolveApiKey } from './api-key';
import { resolveEndpoint, type EndpointRule } from './client-endpoint';
import type { RequestSigner } from './signing-fetch';
import { checkHttpClientOptions, streamHttp, type HttpClientOptions, type HttpStreamOutcome, type HttpStreamRequest } from './stream-http';

/** Options of `streamBedrockConverse`. */
export interface BedrockConverseClientOptions extends HttpClientOptions {
  /**
   * The AWS region (`us-east-1` …): `AWS_REGION`, then `AWS_DEFAULT_REGION` when not given. It
   * makes the base URL, `https://bedrock-runtime.{region}.amazonaws.com`, unless `baseURL` is given.
   */
  readonly region?: string | undefined;
  /** Where the API lives (a VPC endpoint, a proxy), instead of the region's; the client adds `/model/{modelId}/converse-stream`. */
  readonly baseURL?: string | undefined;
  /**
   * Signs each request just before it is sent — every retry and every redirect followed included,
   * on the final URL, headers and body — for callers who authenticate with AWS credentials rather
   * than a Bedrock API key. Use a well-kept SigV4 signer, never a hand-written one, e.g. with
   * `aws4fetch`:
   * ```ts
   * const aws = new AwsClient({ accessKeyId, secretAccessKey, sessionToken, service: 'bedrock', region });
   * await streamBedrockConverse(request, handler, { region, sign: (req) => aws.sign(req) });
   * ```
   * With `sign`, no API key is read from the environment (one passed as `apiKey` is still sent).
   */
  readonly sign?: RequestSigner | undefined;
}

/**
 * The request `streamBedrockConverse` sends, without sending it: POST
 * `{base}/model/{modelId}/converse-stream` (the model id or ARN URL-encoded; the base from
 * `baseURL`, else the region's), the body the request minus `modelId` (then `extraBody`'s fields),
 * `accept: application/vnd.amazon.eventstream`, and the key as `authorization: Bearer …`
 * (`apiKey`, else `AWS_BEARER_TOKEN_BEDROCK` unless `sign` is given). Throws a `TypeError`, naming
 * the option or variable and never a key, for a request without a `modelId` string, options of
 * the wrong kind, a region that is not a region name, no region and no `baseURL`, and no way to
 * authenticate (no key, no `sign`, no authorization header).
 */
export function bedrockConverseHttpRequest(request: ConverseStreamRequest, options: BedrockConverseClientOptions): HttpStreamRequest {
  const spec = bedrockConverseProvider.client!;
  if (typeof request !== 'object' || request === null || typeof (request as { modelId?: unknown }).modelId !== 'string' || request.modelId === '') {
    throw new TypeError(`Expected ${spec.requestName} request with a modelId, got ${describeValue(request)}`);
  }
  checkHttpClientOptions(options);
  if (options.sign !== undefined && typeof options.sign !== 'function') throw new TypeError(`Expected sign to be a function, got ${describeValue(options.sign)}`);
  const region = bedrockRegion(options.region);
  // A region the option names replaces the one the environment names; `baseURL` replaces both.
  const rule: EndpointRule = region === undefined ? spec.endpoint : { ...spec.endpoint, defaultBase: bedrockRuntimeBaseUrl(region.value) };
  const endpoint = resolveEndpoint(options, rule, typeof spec.path === 'string' ? spec.path : spec.path(request));
  // A signer authenticates the request itself: the environment's key is then not read.
  const keyed = options.sign === undefined || options.apiKey !== undefined;
  const apiKey = keyed ? resolveApiKey({ provider: spec.provider, env: spec.apiKeyEnv, header: spec.auth.header }, options.apiKey, options.headers) : undefined;
  const headers: Record<string, string> = { ...spec.headers, accept: bedrockConverseProvider.contentType };
  if (apiKey !== undefined) headers[spec.auth.header] = `${spec.auth.prefix}${apiKey.value}`;
  return {
    // The descriptor itself, so that the client does not depend on the registry's list.
    format: bedrockConverseProvider,
    provider: spec.provider,
    url: endpoint.url,
    urlFrom: endpoint.from,
    apiKey,
    headers,
    body: spec.body(request),
    model: request.modelId,
    sign: options.sign,
  };
}

/**
 * Streams a response from Amazon Bedrock's ConverseStream API: POST
 * `https://bedrock-runtime.{region}.amazonaws.com/model/{modelId}/converse-stream` (region from
 * `region`, `AWS_REGION` or `AWS_DEFAULT_REGION`; `baseURL` instead when given) with the request
 * minus `modelId` as its JSON body, authenticated by a Bedrock API key (`apiKey`, else
 * `AWS_BEARER_TOKEN_BEDROCK`, sent as `authorization: Bearer …`) or by the caller's `sign` hook
 * (SigV4 with a well-kept signer: see `BedrockConverseClientOptions.sign`). The binary event
 * stream is read as `format: 'bedrock-converse'` (`BedrockConverseMapper`). Resolves with the
 * outcome (`http` on it once a response arrived); misuse rejects with a `TypeError` before
 * anything is sent (see `bedrockConverseHttpRequest`); see `streamHttp` for retries, errors and
 * cancel.
 */
export function streamBedrockConverse(request: ConverseStreamRequest, handler: StreamingChatResponseHandler, options: BedrockConverseClientOptions = {}): Promise<HttpStreamOutcome> {
  try {
    return streamHttp(bedrockConverseHttpRequest(request, options), handler, options);
  } catch (error) {
    return Promise.reject(error);
  }
}
