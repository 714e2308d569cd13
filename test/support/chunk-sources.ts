/** An async iterable over the given chunks that records whether it was returned (cancelled) early. */
export interface TrackedSource extends AsyncIterable<Uint8Array | string> {
  readonly returned: boolean;
  /** How many chunks were handed out. */
  readonly pulled: number;
}

/** The chunks, then (optionally) a failure or a stall instead of the end. */
export function trackedSource(chunks: readonly (Uint8Array | string)[], end: { fail?: Error; stall?: boolean } = {}): TrackedSource {
  const state = { returned: false, pulled: 0 };
  async function* generate(): AsyncGenerator<Uint8Array | string> {
    try {
      for (const chunk of chunks) {
        state.pulled++;
        yield chunk;
      }
      if (end.fail !== undefined) throw end.fail;
      if (end.stall === true) await new Promise(() => undefined);
    } finally {
      state.returned = true;
    }
  }
  const iterable = {
    [Symbol.asyncIterator]: () => {
      const iterator = generate();
      return {
        next: () => iterator.next(),
        // A generator's return() waits for a pending next(); a stalled one never finishes, so mark it here.
        return: (value?: unknown) => {
          state.returned = true;
          void iterator.return(value as undefined).catch(() => undefined);
          return Promise.resolve({ done: true as const, value: undefined });
        },
      };
    },
    get returned() {
      return state.returned;
    },
    get pulled() {
      return state.pulled;
    },
  };
  return iterable;
}

/** Splits bytes into chunks at the given offsets (sorted, deduplicated, inside the body). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((at) => at > 0 && at < bytes.length))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const at of cuts) {
    chunks.push(bytes.subarray(from, at));
    from = at;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}
