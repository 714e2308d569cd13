import type { ChatModelListener } from './chat-model-listener';

/**
 * The `diagnostics_channel` channels partstream publishes a stream's listener calls on (Node, Bun,
 * Deno), one per call: the message is the very context the listeners get. A stream is published
 * only when one of them had a subscriber as it started (otherwise nothing is built for it). An APM
 * agent subscribes without depending on partstream or OpenTelemetry.
 */
export const STREAM_CHANNELS = Object.freeze({
  /** `onRequest`: a stream started (its `ChatModelRequestContext`). */
  start: 'partstream:stream:start',
  /** `onFirstChunk`: the first content arrived (`ChatModelFirstChunkContext`). */
  firstChunk: 'partstream:stream:firstChunk',
  /** `onResponse`: the stream completed (`ChatModelResponseContext`). */
  response: 'partstream:stream:response',
  /** `onError`: the stream failed (`ChatModelErrorContext`). */
  error: 'partstream:stream:error',
  /** `onCancel`: the stream was cancelled (`ChatModelCancelContext`). */
  cancel: 'partstream:stream:cancel',
} as const);

/** What partstream uses of a `node:diagnostics_channel` channel. */
interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

interface DiagnosticsChannels {
  channel(name: string): Channel;
}

type Channels = Readonly<Record<keyof typeof STREAM_CHANNELS, Channel>>;

/** The channels, looked up on first use; null where the host has no `diagnostics_channel` (a browser). */
let channels: Channels | null | undefined;

function lookUp(): Channels | null {
  if (channels !== undefined) return channels;
  channels = null;
  try {
    // `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno) loads it without an import, so that the
    // library stays portable; read through `?.`: there is no `process` in a browser.
    const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    const found = host.process?.getBuiltinModule?.('node:diagnostics_channel') as Partial<DiagnosticsChannels> | undefined;
    if (found !== undefined && found !== null && typeof found.channel === 'function') {
      const channel = found.channel.bind(found);
      channels = Object.freeze({
        start: channel(STREAM_CHANNELS.start),
        firstChunk: channel(STREAM_CHANNELS.firstChunk),
        response: channel(STREAM_CHANNELS.response),
        error: channel(STREAM_CHANNELS.error),
        cancel: channel(STREAM_CHANNELS.cancel),
      });
    }
  } catch {
    // A host that refuses the module has no channels.
  }
  return channels;
}

/** Publishes on one channel (a channel without subscribers drops the message at once). */
function publisher(name: keyof typeof STREAM_CHANNELS): (context: unknown) => void {
  return (context) => (channels as Channels)[name].publish(context);
}

const PUBLISHING: ChatModelListener = Object.freeze({
  onRequest: publisher('start'),
  onFirstChunk: publisher('firstChunk'),
  onResponse: publisher('response'),
  onError: publisher('error'),
  onCancel: publisher('cancel'),
});

/**
 * The listener that publishes a stream on `STREAM_CHANNELS`, or null when no channel has a
 * subscriber (a few property reads per stream) or the host has no `diagnostics_channel`.
 */
export function channelListener(): ChatModelListener | null {
  const found = lookUp();
  if (found === null) return null;
  return found.start.hasSubscribers || found.firstChunk.hasSubscribers || found.response.hasSubscribers || found.error.hasSubscribers || found.cancel.hasSubscribers
    ? PUBLISHING
    : null;
}
