// Where a response and a producer process live in Redis. Every key carries a hash tag, so the keys
// one command touches together share a Cluster slot: all response keys share `{0}` (the one
// bucket, which one XREAD can cover whole), each process has its own `{p:<producer id>}`.

/** The key names of one store (one `keyPrefix`). */
export interface RelayKeys {
  /** The response's event log: a stream of batches with ids `0-<first>`. */
  log(responseId: string): string;
  /** The response's meta hash: `v`, `owner`, `createdAt`, `state`, `stop`. */
  meta(responseId: string): string;
  /** The process's heartbeat string, alive while it exists. */
  alive(producerId: string): string;
  /** The process's control stream (stop requests for the responses it produces). */
  ctl(producerId: string): string;
}

/** A key prefix: what ids may hold, 1 to 64 characters. */
export const KEY_PREFIX_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The key names under `prefix` (already checked against `KEY_PREFIX_PATTERN`). */
export function relayKeys(prefix: string): RelayKeys {
  const response = `${prefix}:{0}:r:`;
  return {
    log: (responseId) => `${response}${responseId}:log`,
    meta: (responseId) => `${response}${responseId}:meta`,
    alive: (producerId) => `${prefix}:{p:${producerId}}:alive`,
    ctl: (producerId) => `${prefix}:{p:${producerId}}:ctl`,
  };
}
