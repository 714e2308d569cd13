import { optionOrEnv, type ClientEnvironmentVariable, type SourcedValue } from './environment';

/** Where a provider takes its API key from, and how it sends it. */
export interface ApiKeyRule {
  /** The provider's name, for the error. */
  readonly provider: string;
  /** The environment variables the SDK reads the key from, in order; none for a provider that needs no key (local Ollama). */
  readonly env: readonly ClientEnvironmentVariable[];
  /** The header the key is sent in (`authorization`, `x-api-key` …). */
  readonly header: string;
  /** True when a request may go without a key (the request is signed another way). */
  readonly optional?: boolean | undefined;
}

/**
 * True when the caller's own headers already authenticate the request: an `authorization` header
 * (a bearer token, a proxy's credential) or the provider's own key header, in any letter case.
 */
function authenticatedByHeaders(rule: ApiKeyRule, headers: Readonly<Record<string, unknown>> | undefined): boolean {
  if (headers === undefined) return false;
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if ((lower === 'authorization' || lower === rule.header) && typeof headers[name] === 'string') return true;
  }
  return false;
}

/**
 * The API key to send: the `apiKey` option, else the first of the provider's environment variables
 * that is set; undefined when none is to be sent (an empty `apiKey`, said on purpose, for a server
 * that takes no key; or a provider that needs none, or headers that authenticate the request
 * themselves). Throws a `TypeError` naming the option and the variables when a provider that needs
 * a key has none, as the official SDKs do before sending anything.
 */
export function resolveApiKey(rule: ApiKeyRule, apiKey: string | undefined, headers: Readonly<Record<string, unknown>> | undefined): SourcedValue | undefined {
  if (apiKey === '') return undefined;
  const found = optionOrEnv(apiKey, 'apiKey', rule.env);
  if (found !== undefined || rule.env.length === 0 || rule.optional === true || authenticatedByHeaders(rule, headers)) return found;
  throw new TypeError(`Missing API key for ${rule.provider}: pass apiKey or set ${rule.env.join(' or ')} (or pass apiKey: '' to send none, for a server that takes no key)`);
}
