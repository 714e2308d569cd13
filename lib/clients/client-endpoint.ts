import { describeValue } from '../parts/describe-value';
import { optionOrEnv, type ClientEnvironmentVariable, type SourcedValue } from './environment';
import type { HttpClientOptions } from './stream-http';

/** Where one client's endpoint is, and how its options and environment name it. */
export interface EndpointRule {
  /** The option's name as the provider's SDK spells it. */
  readonly option: 'baseURL' | 'host';
  /** The option's value (undefined when not given). */
  readonly value: unknown;
  /** The environment variable read when the option is not given. */
  readonly env: ClientEnvironmentVariable | null;
  /** The provider's own base URL or host. */
  readonly defaultBase: string;
  /** Turns the option's (or variable's) value into a base URL (Ollama's `host` may lack a scheme or a port). */
  readonly normalize?: (value: string) => string;
  /** The endpoint's path under the base URL or host (`chat/completions`, `v1/messages` …). */
  readonly path: string;
  /** The endpoint's path under the deprecated `baseUrl`, which keeps its old meaning. */
  readonly legacyPath: string;
}

/** The endpoint's URL and where it came from (an option's or a variable's name, for error messages). */
export interface ResolvedEndpoint {
  readonly url: string;
  readonly from: string;
}

/** `base` + `path`, with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * The endpoint's URL: the option (`baseURL`, or `host`) when given, else the deprecated `baseUrl`
 * (joined as before), else the SDK's environment variable, else the provider's default. Throws a
 * `TypeError` when the option is not a string, or when both it and `baseUrl` are given.
 */
export function resolveEndpoint(options: HttpClientOptions, rule: EndpointRule): ResolvedEndpoint {
  if (rule.value !== undefined && typeof rule.value !== 'string') {
    throw new TypeError(`Expected ${rule.option} to be a string, got ${describeValue(rule.value)}`);
  }
  if (rule.value !== undefined && options.baseUrl !== undefined) {
    throw new TypeError(`Expected ${rule.option} or the deprecated baseUrl, got both: pass ${rule.option} alone`);
  }
  if (rule.value === undefined && options.baseUrl !== undefined) return { url: joinUrl(options.baseUrl, rule.legacyPath), from: 'baseUrl' };
  const given = optionOrEnv(rule.value, rule.option, rule.env === null ? [] : [rule.env]);
  const base = given === undefined ? rule.defaultBase : (rule.normalize ?? String)(given.value);
  return { url: joinUrl(base, rule.path), from: given?.from ?? rule.option };
}

/** The `apiKey` option when given, else the first of the SDK's environment variables that is set, else undefined (no key is sent). */
export function resolveApiKey(options: HttpClientOptions, variables: readonly ClientEnvironmentVariable[]): SourcedValue | undefined {
  return optionOrEnv(options.apiKey, 'apiKey', variables);
}
