/** An environment variable a client reads (`OPENAI_API_KEY`, `OLLAMA_HOST` …), as the provider's SDK names it. */
export type ClientEnvironmentVariable = string;

/** A value with where it came from (an option or an environment variable), for error messages. */
export interface SourcedValue {
  readonly value: string;
  /** The option's name (`apiKey`, `baseURL` …) or the environment variable's. */
  readonly from: string;
}

/**
 * An environment variable's value, trimmed, or undefined when it is unset or blank (as the SDKs
 * treat it). Read through `globalThis.process?.env`, so that the clients also run where there is no
 * `process` (a browser, a worker): there every variable reads as unset.
 */
export function readEnv(name: ClientEnvironmentVariable): string | undefined {
  let value: unknown;
  try {
    value = (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env?.[name];
  } catch {
    // An environment that refuses to be read (a sandbox's proxy) is an unset one.
    return undefined;
  }
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The option when it was given, else the first environment variable that is set, else undefined. */
export function optionOrEnv(option: string | undefined, optionName: string, variables: readonly ClientEnvironmentVariable[]): SourcedValue | undefined {
  if (option !== undefined) return { value: option, from: optionName };
  for (const name of variables) {
    const value = readEnv(name);
    if (value !== undefined) return { value, from: name };
  }
  return undefined;
}
