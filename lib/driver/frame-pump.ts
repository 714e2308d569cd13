import { describeError } from '../handler/describe-error';
import { StreamError } from '../handler/stream-error';
import type { AnyFrame } from './wire-plan';
import type { FrameDelivery } from './frame-delivery';
import type { RunState } from './run-state';
import type { SafeHandler } from './safe-handler';

/** `deliverFrom`'s answer when reading should stop. */
const STOP = -1;

/**
 * Feeds decoded frames to a format's per-event step, one at a time, in step with the handler:
 * while a callback's promise is pending the next frame waits for it. The one stop check per frame
 * is the run state's `open` field (no terminal callback, no cancel).
 */
export class FramePump {
  constructor(
    private readonly delivery: FrameDelivery,
    private readonly run: RunState,
    private readonly safe: SafeHandler,
    private readonly fail: (error: Error) => void,
  ) {}

  /**
   * Delivers frames; true when reading should stop (terminal event, terminal callback, cancel, a
   * frame that could not be mapped). When a callback returned a promise, the frames after it wait
   * for it and the answer is a promise; the sync path stays a plain loop.
   */
  deliverAll(frames: readonly AnyFrame[]): boolean | Promise<boolean> {
    const at = this.deliverFrom(frames, 0);
    if (at === STOP) return true;
    if (!this.safe.busy) return false;
    return this.deliverRest(frames, at);
  }

  /**
   * Delivers `frames` from `from` on, until a callback's promise is pending: `STOP` when reading
   * should stop, else the index to go on from (`frames.length` once all were delivered).
   */
  private deliverFrom(frames: readonly AnyFrame[], from: number): number {
    const delivery = this.delivery;
    const run = this.run;
    for (let i = from; i < frames.length; i++) {
      const frame = frames[i] as AnyFrame;
      let stop: boolean;
      try {
        stop = delivery.deliver(frame);
      } catch (error) {
        const text = 'data' in frame && typeof frame.data === 'string' ? frame.data : 'text' in frame && typeof frame.text === 'string' ? frame.text : undefined;
        this.fail(new StreamError('malformed', `A frame could not be mapped: ${describeError(error)}`, { cause: error, frame: text }));
        return STOP;
      }
      if (stop || !run.open) return STOP;
      if (this.safe.busy) return i + 1;
    }
    return frames.length;
  }

  /** The rest of `deliverAll` once a callback's promise is pending: each frame waits for the callbacks before it. */
  private async deliverRest(frames: readonly AnyFrame[], from: number): Promise<boolean> {
    let at = from;
    for (;;) {
      await this.safe.drained();
      if (!this.run.open) return true;
      if (at === frames.length) return false;
      at = this.deliverFrom(frames, at);
      if (at === STOP) return true;
      if (!this.safe.busy) return false;
    }
  }
}
