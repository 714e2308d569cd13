/** The environment variables the HTTP clients read. */
export const CLIENT_ENV_VARIABLES = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'OLLAMA_HOST',
] as const;

/**
 * Mocha hooks that unset the clients' environment variables around a suite (so that a developer's
 * own `OPENAI_API_KEY` neither leaks into a test server nor changes a URL) and put them back after.
 */
export function withoutClientEnv(): void {
  const saved = new Map<string, string | undefined>();
  before(() => {
    for (const name of CLIENT_ENV_VARIABLES) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
  });
  after(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

/** Runs `body` with these variables set (and the others of `CLIENT_ENV_VARIABLES` unset), then restores them. */
export async function withEnv<T>(variables: Partial<Record<(typeof CLIENT_ENV_VARIABLES)[number], string>>, body: () => Promise<T>): Promise<T> {
  const saved = CLIENT_ENV_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const name of CLIENT_ENV_VARIABLES) {
    const value = variables[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    return await body();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
