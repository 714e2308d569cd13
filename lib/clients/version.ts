/**
 * partstream's version, as in package.json (a test checks that they agree). A constant rather than
 * a read of package.json, so that it works in a browser and in every bundle without a file system.
 */
export const PARTSTREAM_VERSION = '0.3.0';

/** The `User-Agent` the HTTP clients send (`partstream/<version>`); a `user-agent` in `headers` overrides it. */
export const USER_AGENT = `partstream/${PARTSTREAM_VERSION}`;
