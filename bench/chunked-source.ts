/**
 * An `AsyncIterable<Uint8Array>` over pre-split chunks, as a network body would deliver them.
 * `onChunk` (optional) runs before each chunk is handed out, e.g. to sample the heap. Iterating
 * costs one resolved promise per chunk, the same for every contender.
 */
export function chunkedSource(chunks: readonly Uint8Array[], onChunk?: () => void): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      let next = 0;
      return {
        next(): Promise<IteratorResult<Uint8Array>> {
          if (onChunk !== undefined) onChunk();
          if (next < chunks.length) return Promise.resolve({ done: false, value: chunks[next++] });
          return Promise.resolve({ done: true, value: undefined });
        },
        return(): Promise<IteratorResult<Uint8Array>> {
          next = chunks.length;
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}
