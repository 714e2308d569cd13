import { describeValue } from '../../parts/describe-value';
import type { ConverseStreamRequest } from './bedrock-converse-request';

/** The environment variables the AWS SDKs read the region from, in order. */
export const BEDROCK_REGION_ENV: readonly string[] = ['AWS_REGION', 'AWS_DEFAULT_REGION'];

/** A region and where it came from (the `region` option or a variable), for error messages. */
export interface SourcedRegion {
  readonly value: string;
  readonly from: string;
}

/** An AWS region name: lowercase letters and digits in dash-separated words (nothing that could change the host). */
const REGION = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The base URL of Bedrock's runtime API in `region`. */
export function bedrockRuntimeBaseUrl(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** An environment variable's value, trimmed; undefined when unset, blank, or where there is no `process` (a browser, a worker). */
function readVariable(name: string): string | undefined {
  let value: unknown;
  try {
    value = (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env?.[name];
  } catch {
    return undefined;
  }
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed === '' ? undefined : trimmed;
}

/**
 * The region: `option` when given, else `AWS_REGION`, else `AWS_DEFAULT_REGION`; undefined when
 * none is set. Throws a `TypeError` naming its source when it is not a region name (a value that
 * would put another host in the URL).
 */
export function bedrockRegion(option: unknown): SourcedRegion | undefined {
  if (option !== undefined && typeof option !== 'string') throw new TypeError(`Expected region to be a string, got ${describeValue(option)}`);
  let region: SourcedRegion | undefined = option === undefined ? undefined : { value: option, from: 'region' };
  for (const name of BEDROCK_REGION_ENV) {
    if (region !== undefined) break;
    const value = readVariable(name);
    if (value !== undefined) region = { value, from: name };
  }
  if (region !== undefined && !REGION.test(region.value)) throw new TypeError(`Expected ${region.from} to be an AWS region name (like us-east-1), got ${describeValue(region.value)}`);
  return region;
}

/** The runtime API's base URL for the region `option` or the environment names; a `TypeError` saying what to set when none does. */
export function bedrockBaseUrl(option?: unknown): string {
  const region = bedrockRegion(option);
  if (region === undefined) throw new TypeError('Missing region for Amazon Bedrock: pass region or set AWS_REGION or AWS_DEFAULT_REGION (or pass baseURL)');
  return bedrockRuntimeBaseUrl(region.value);
}

/** The ConverseStream path of a request: `model/{modelId}/converse-stream`, the id (or ARN) URL-encoded. */
export function bedrockConversePath(request: ConverseStreamRequest): string {
  return `model/${encodeURIComponent(request.modelId)}/converse-stream`;
}
