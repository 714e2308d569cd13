/**
 * A caller's request signer: takes the request about to be sent and returns the one to send
 * (the same, with headers added, or a new one), e.g. AWS SigV4 from a well-kept signer such as
 * `aws4fetch` (`(request) => new AwsClient({ accessKeyId, secretAccessKey, sessionToken, service:
 * 'bedrock', region }).sign(request)`). It may be async.
 */
export type RequestSigner = (request: Request) => Request | Promise<Request>;

/**
 * `fetchImpl` with every request passed through `sign` first — each attempt of a retry and each
 * redirect followed alike, since each is its own call — so that what is signed is exactly what is
 * sent: the final URL, method, headers and body. Without a signer, `fetchImpl` itself.
 */
export function signingFetch(fetchImpl: typeof globalThis.fetch, sign: RequestSigner | undefined): typeof globalThis.fetch {
  if (sign === undefined) return fetchImpl;
  return async (input, init) => {
    const signed = await sign(new Request(input, init));
    if (!(signed instanceof Request)) throw new TypeError(`Expected sign to return a Request, got ${signed === null ? 'null' : typeof signed}`);
    // `redirect` and `signal` are taken from the signed request itself; a signer that builds a new one keeps them only if it copies them.
    return fetchImpl(signed);
  };
}
