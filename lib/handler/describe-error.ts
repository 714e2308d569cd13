/**
 * An error's message, with its cause's when it has one (undici's "fetch failed" or "terminated" say
 * little alone). Never throws, even for values that resist reading (a revoked Proxy, a throwing
 * `message` getter).
 */
export function describeError(error: unknown): string {
  try {
    if (!(error instanceof Error)) return String(error);
    const message = String(error.message);
    const cause: unknown = error.cause;
    if (!(cause instanceof Error)) return message;
    const causeMessage = String(cause.message);
    return causeMessage !== '' && causeMessage !== message ? `${message} (${causeMessage})` : message;
  } catch {
    return 'an error that could not be described';
  }
}
