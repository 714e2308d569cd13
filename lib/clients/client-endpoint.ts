import { describeValue } from '../parts/describe-value';
import { optionOrEnv } from './environment';
import type { HttpClientOptions } from './stream-http';
import type { EndpointRule } from '../providers/provider-descriptor';

export type { EndpointRule } from '../providers/provider-descriptor';

/** The options a client reads its endpoint from: the common ones, and `baseURL` or `host`. */
export interface EndpointOptions extends HttpClientOptions {
  /** Where the API lives, for every client but Ollama's (see each client's options). */
  readonly baseURL?: string | undefined;
  /** Where Ollama listens (see `OllamaClientOptions.host`). */
  readonly host?: string | undefined;
}

/** The endpoint's URL and where it came from (an option's or a variable's name, for error messages). */
export interface ResolvedEndpoint {
  readonly url: string;
  readonly from: string;
}

/** `base` + `path`, with exactly one slash between them. */
function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * The URL of the endpoint at `path` (`chat/completions`, `messages` …, under the API version): the
 * rule's option (`baseURL`, or `host`) when given, else the deprecated `baseUrl` (joined without
 * the version, as before), else the SDK's environment variable, else the provider's default. Throws
 * a `TypeError` when the option is not a string, or when both it and `baseUrl` are given.
 */
export function resolveEndpoint(options: EndpointOptions, rule: EndpointRule, path: string): ResolvedEndpoint {
  const value: unknown = options[rule.option];
  if (value !== undefined && typeof value !== 'string') {
    throw new TypeError(`Expected ${rule.option} to be a string, got ${describeValue(value)}`);
  }
  if (value !== undefined && options.baseUrl !== undefined) {
    throw new TypeError(`Expected ${rule.option} or the deprecated baseUrl, got both: pass ${rule.option} alone`);
  }
  if (value === undefined && options.baseUrl !== undefined) return { url: joinUrl(options.baseUrl, path), from: 'baseUrl' };
  const given = optionOrEnv(value, rule.option, rule.env === null ? [] : [rule.env]);
  const base = given === undefined ? (typeof rule.defaultBase === 'function' ? rule.defaultBase() : rule.defaultBase) : (rule.normalize ?? String)(given.value);
  return { url: joinUrl(base, rule.version === '' ? path : `${rule.version}/${path}`), from: given?.from ?? rule.option };
}
