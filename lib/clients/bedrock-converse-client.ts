import type { StreamingChatResponseHandler } from '../handler/types';
import { describeValue } from '../parts/describe-value';
import type { WireFormat } from '../wire/types';
import { resolveApiKey } from './api-key';
import type { ConverseStreamRequest } from './bedrock-converse-request';
import { resolveEndpoint, type EndpointRule } from './client-endpoint';
import { optionOrEnv, type SourcedValue } from './environment';
import { requestBody } from './request-types';
import type { RequestSigner } from './signing-fetch';
import { checkHttpClientOptions, streamHttp, type HttpClientOptions, type HttpStreamOutcome, type HttpStreamRequest } from './stream-http';

/** The wire format of a ConverseStream response body (binary `application/vnd.amazon.eventstream`). */
export const BEDROCK_CONVERSE_FORMAT = 'bedrock-converse';

const PROVIDER = 'Amazon Bedrock';

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

/** An AWS region name: lowercase letters and digits in dash-separated words (nothing that could change the host). */
const REGION = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The base URL of Bedrock's runtime API in `region`. */
export function bedrockRuntimeBaseUrl(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

function checkRegion(region: SourcedValue): string {
  if (!REGION.test(region.value)) throw new TypeError(`Expected ${region.from} to be an AWS region name (like us-east-1), got ${describeValue(region.value)}`);
  return region.value;
}

/**
 * The request `streamBedrockConverse` sends, without sending it: POST
 * `{base}/model/{modelId}/converse-stream` (the model id or ARN URL-encoded), the body the request
 * minus `modelId` (then `extraBody`'s fields), `accept: application/vnd.amazon.eventstream`, and the
 * key as `authorization: Bearer …` (`apiKey`, else `AWS_BEARER_TOKEN_BEDROCK` unless `sign` is
 * given). Throws a `TypeError`, naming the option or variable and never a key, for a request
 * without a `modelId` string, options of the wrong kind, a region that is not a region name, no
 * region and no `baseURL`, and no way to authenticate (no key, no `sign`, no authorization header).
 */
export function bedrockConverseHttpRequest(request: ConverseStreamRequest, options: BedrockConverseClientOptions): HttpStreamRequest {
  if (typeof request !== 'object' || request === null || typeof (request as { modelId?: unknown }).modelId !== 'string' || request.modelId === '') {
    throw new TypeError(`Expected a Bedrock ConverseStream request with a modelId, got ${describeValue(request)}`);
  }
  checkHttpClientOptions(options);
  if (options.sign !== undefined && typeof options.sign !== 'function') throw new TypeError(`Expected sign to be a function, got ${describeValue(options.sign)}`);
  if (options.region !== undefined && typeof options.region !== 'string') throw new TypeError(`Expected region to be a string, got ${describeValue(options.region)}`);
  const given = options.baseURL ?? options.baseUrl;
  const region = optionOrEnv(options.region, 'region', ['AWS_REGION', 'AWS_DEFAULT_REGION']);
  if (given === undefined && region === undefined) {
    throw new TypeError(`Missing region for ${PROVIDER}: pass region or set AWS_REGION or AWS_DEFAULT_REGION (or pass baseURL)`);
  }
  const rule: EndpointRule = { option: 'baseURL', env: null, defaultBase: region === undefined ? '' : bedrockRuntimeBaseUrl(checkRegion(region)), version: '' };
  const endpoint = resolveEndpoint(options, rule, `model/${encodeURIComponent(request.modelId)}/converse-stream`);
  const signed = options.sign !== undefined;
  // A signer authenticates the request itself: the environment's key is then not read.
  const apiKey = signed && options.apiKey === undefined ? undefined : resolveApiKey({ provider: PROVIDER, env: ['AWS_BEARER_TOKEN_BEDROCK'], header: 'authorization' }, options.apiKey, options.headers);
  const headers: Record<string, string> = { accept: 'application/vnd.amazon.eventstream' };
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey.value}`;
  const { modelId, ...fields } = request;
  return {
    // The registry of formats names 'bedrock-converse' once the Bedrock descriptor is in it.
    format: BEDROCK_CONVERSE_FORMAT as unknown as WireFormat,
    provider: PROVIDER,
    url: endpoint.url,
    urlFrom: endpoint.from,
    apiKey,
    headers,
    body: requestBody(fields, {}),
    model: modelId,
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
 * stream is mapped by `BedrockConverseMapper`. Resolves with the outcome (`http` on it once a
 * response arrived); misuse rejects with a `TypeError` before anything is sent (see
 * `bedrockConverseHttpRequest`); see `streamHttp` for retries, errors and cancel.
 */
export function streamBedrockConverse(request: ConverseStreamRequest, handler: StreamingChatResponseHandler, options: BedrockConverseClientOptions = {}): Promise<HttpStreamOutcome> {
  try {
    return streamHttp(bedrockConverseHttpRequest(request, options), handler, options);
  } catch (error) {
    return Promise.reject(error);
  }
}
