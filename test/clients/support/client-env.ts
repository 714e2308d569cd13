/** The environment variables the HTTP clients read. */
export const CLIENT_ENV_VARIABLES = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'OLLAMA_HOST',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_BEARER_TOKEN_BEDROCK',
] as const;

/** A key the test suites set in the clients' key variables (`withoutClientEnv(TEST_ENV_KEYS)`), so that a request may be sent. */
export const TEST_ENV_KEYS = { OPENAI_API_KEY: 'sk-env-test-0000', ANTHROPIC_API_KEY: 'sk-env-test-0000', GEMINI_API_KEY: 'sk-env-test-0000' } as const;

/**
 * Mocha hooks that unset the clients' environment variables around a suite (so that a developer's
 * own `OPENAI_API_KEY` neither leaks into a test server nor changes a URL), then set `variables`,
 * and put them all back after.
 */
export function withoutClientEnv(variables: Partial<Record<(typeof CLIENT_ENV_VARIABLES)[number], string>> = {}): void {
  const saved = new Map<string, string | undefined>();
  before(() => {
    for (const name of CLIENT_ENV_VARIABLES) {
      saved.set(name, process.env[name]);
      const value = variables[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
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
