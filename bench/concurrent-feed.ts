/**
 * Feeds many streams at once, the way a busy server's sockets do: each stream's source hands out
 * its next piece only after a `setImmediate`, so that all open streams take turns, one piece each
 * per turn of the event loop. A feeder can also hold every stream at a piece index (its `limit`),
 * so that the heap can be measured with all of them parked at the same point.
 */
export class ConcurrentFeeder {
  private limit = Number.POSITIVE_INFINITY;
  private readonly parked: (() => void)[] = [];
  private onParked: { readonly count: number; readonly resolve: () => void } | null = null;

  /** A source over `pieces` (shared by every stream: views, no copies), paced by this feeder. */
  source(pieces: readonly Uint8Array[]): AsyncIterable<Uint8Array> {
    return {
      [Symbol.asyncIterator]: (): AsyncIterator<Uint8Array> => {
        let next = 0;
        const deliver = (resolve: (result: IteratorResult<Uint8Array>) => void, piece: Uint8Array): void => {
          setImmediate(() => resolve({ done: false, value: piece }));
        };
        return {
          next: (): Promise<IteratorResult<Uint8Array>> => {
            if (next >= pieces.length) return Promise.resolve({ done: true, value: undefined });
            const index = next++;
            const piece = pieces[index];
            return new Promise((resolve) => {
              if (index < this.limit) deliver(resolve, piece);
              else this.park(() => deliver(resolve, piece));
            });
          },
          return: (): Promise<IteratorResult<Uint8Array>> => {
            next = pieces.length;
            return Promise.resolve({ done: true, value: undefined });
          },
        };
      },
    };
  }

  /** Streams asking for a piece at index ≥ `limit` wait until `release` lets them on. */
  holdAt(limit: number): void {
    this.limit = limit;
  }

  /** Resolves once `count` streams are waiting at the limit. */
  whenParked(count: number): Promise<void> {
    if (this.parked.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      this.onParked = { count, resolve };
    });
  }

  /** Moves the limit to `limit` (no limit by default) and lets every waiting stream go on. */
  release(limit = Number.POSITIVE_INFINITY): void {
    this.limit = limit;
    const waiting = this.parked.splice(0);
    for (const go of waiting) go();
  }

  private park(go: () => void): void {
    this.parked.push(go);
    const pending = this.onParked;
    if (pending !== null && this.parked.length >= pending.count) {
      this.onParked = null;
      pending.resolve();
    }
  }
}

/**
 * Splits a stream's bytes into `size`-byte views, with a piece boundary at each of `cuts` (byte
 * offsets), so that a feeder can hold the streams exactly there. Returns the pieces and the piece
 * index at which each cut starts.
 */
export function piecesWithCuts(bytes: Uint8Array, size: number, cuts: readonly number[]): { pieces: Uint8Array[]; cutIndexes: number[] } {
  const pieces: Uint8Array[] = [];
  const cutIndexes: number[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut < start || cut > bytes.length) throw new RangeError(`Cuts must be ascending offsets within the bytes, got ${cut}`);
    for (let offset = start; offset < cut; offset += size) pieces.push(bytes.subarray(offset, Math.min(offset + size, cut)));
    cutIndexes.push(pieces.length);
    start = cut;
  }
  cutIndexes.pop();
  return { pieces, cutIndexes };
}
