/** What replaces a hidden query value or credential (the HTTP semantic conventions' spelling). */
const HIDDEN = 'REDACTED';

/**
 * Query parameter names whose value is hidden: the HTTP conventions' list (`AWSAccessKeyId`,
 * `Signature`, `sig`, `X-Goog-Signature`) and any name that says key, token, secret, password,
 * signature or credential (Gemini's `key`, an `api-key`, an `access_token`).
 */
const SECRET_NAME = /^(?:sig|AWSAccessKeyId)$|key|token|secret|passw|signature|credential|auth/i;

/**
 * The URL of a request as listeners see it (`url.full`): no credentials, no fragment, the value of
 * every secret-looking query parameter and every occurrence of a secret replaced by `REDACTED`. Text
 * that is not a URL keeps only what precedes its query (or an `@`).
 */
export function attemptUrl(url: string, secrets: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return hide(url.replace(/[?#@].*$/s, ''), secrets);
  }
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  if (parsed.search !== '') {
    const query = parsed.searchParams;
    const names = new Set<string>();
    query.forEach((_, name) => void names.add(name));
    for (const name of names) {
      if (SECRET_NAME.test(name)) query.set(name, HIDDEN);
    }
  }
  return hide(parsed.href, secrets);
}

/** `text` with every secret, as it is and percent-encoded, replaced by `REDACTED`. */
function hide(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    for (const form of [secret, encodeURIComponent(secret)]) {
      if (result.includes(form)) result = result.split(form).join(HIDDEN);
    }
  }
  return result;
}
