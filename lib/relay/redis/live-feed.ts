// The live part of one read: the stream tail pushes entries in, the reading generator takes them
// out. The queue is bounded: a reader that falls too far behind is detached from the tail and
// catches up from the log itself (XRANGE) instead of buffering without limit.

import type { RelayStreamEntry } from './relay-redis-client';
import type { TailListener } from './stream-tail';

/** Queued entries beyond which a read leaves the live tail and catches up from the log. */
export const MAX_QUEUED_ENTRIES = 2048;

/** Why `LiveFeed#wait` returned. */
export type FeedState = 'entries' | 'behind' | 'aborted' | 'closed' | 'failed';

/** A bounded queue of live entries for one read, with one waiter. */
export class LiveFeed implements TailListener {
  #queued: RelayStreamEntry[] = [];
  #behind = false;
  #closed = false;
  #failure: Error | null = null;
  #wake: (() => void) | null = null;
  /** Called once when the feed stops taking entries (too far behind, failed or closed). */
  onDetach: () => void = () => {};

  entries(entries: readonly RelayStreamEntry[]): void {
    if (this.#behind || this.#closed || this.#failure !== null) return;
    if (this.#queued.length + entries.length > MAX_QUEUED_ENTRIES) {
      this.#behind = true;
      this.onDetach();
    } else {
      for (const entry of entries) this.#queued.push(entry);
    }
    this.#notify();
  }

  fail(error: Error): void {
    this.#failure ??= error;
    this.onDetach();
    this.#notify();
  }

  /** Ends the feed: its waiter returns 'closed'. */
  close(): void {
    this.#closed = true;
    this.onDetach();
    this.#notify();
  }

  /** The error that failed the feed, if any. */
  get failure(): Error | null {
    return this.#failure;
  }

  /** The queued entries, oldest first, emptying the queue. */
  take(): RelayStreamEntry[] {
    const taken = this.#queued;
    this.#queued = [];
    return taken;
  }

  /** Waits until there are entries, or the feed is behind, failed or closed, or `signal` aborts. */
  async wait(signal: AbortSignal): Promise<FeedState> {
    for (;;) {
      if (signal.aborted) return 'aborted';
      if (this.#closed) return 'closed';
      if (this.#queued.length > 0) return 'entries';
      if (this.#failure !== null) return 'failed';
      if (this.#behind) return 'behind';
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal.removeEventListener('abort', wake);
          this.#wake = null;
          resolve();
        };
        this.#wake = wake;
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  #notify(): void {
    this.#wake?.();
  }
}
