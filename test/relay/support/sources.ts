/** One body as an async iterable of one chunk (or of the given pieces). */
export function source(...chunks: (Uint8Array | string)[]): AsyncIterable<Uint8Array | string> {
  return {
    async *[Symbol.asyncIterator]() {
      for (const chunk of chunks) yield chunk;
    },
  };
}
