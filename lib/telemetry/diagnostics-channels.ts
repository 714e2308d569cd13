import type { ChatModelEndContext, ChatModelListener, ChatModelRequestContext } from './chat-model-listener';

/**
 * The `diagnostics_channel` channel partstream publishes its streams on (Node, Bun, Deno), as the
 * design notes of SPEC §14 name it: a `start` message when a stream starts and one `end` message
 * however it ends, each carrying the very context the listeners get (the end context's `outcome`
 * says how it ended). A stream is published only when the channel had a subscriber as it started,
 * so that nothing is built for it otherwise. An APM agent subscribes without depending on
 * partstream or OpenTelemetry.
 */
export const CHAT_CHANNEL = 'partstream:chat';

/** A message on `CHAT_CHANNEL`. */
export type ChatChannelMessage = { readonly type: 'start'; readonly context: ChatModelRequestContext } | { readonly type: 'end'; readonly context: ChatModelEndContext };

/** What partstream uses of a `node:diagnostics_channel` channel. */
interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

interface DiagnosticsChannels {
  channel(name: string): Channel;
}

/** The channel, looked up on first use; null where the host has no `diagnostics_channel` (a browser). */
let chat: Channel | null | undefined;

function lookUp(): Channel | null {
  if (chat !== undefined) return chat;
  chat = null;
  try {
    // `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno) loads it without an import, so that the
    // library stays portable; read through `?.`: there is no `process` in a browser.
    const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    const found = host.process?.getBuiltinModule?.('node:diagnostics_channel') as Partial<DiagnosticsChannels> | undefined;
    if (found !== undefined && found !== null && typeof found.channel === 'function') chat = found.channel(CHAT_CHANNEL);
  } catch {
    // A host that refuses the module has no channels.
  }
  return chat;
}

function publishEnd(context: ChatModelEndContext): void {
  (chat as Channel).publish({ type: 'end', context });
}

const PUBLISHING: ChatModelListener = Object.freeze({
  onRequest: (context: ChatModelRequestContext) => (chat as Channel).publish({ type: 'start', context }),
  onResponse: publishEnd,
  onError: publishEnd,
  onCancel: publishEnd,
});

/**
 * The listener that publishes a stream on `CHAT_CHANNEL`, or null when the channel has no
 * subscriber (one property read per stream) or the host has no `diagnostics_channel`.
 */
export function channelListener(): ChatModelListener | null {
  const found = lookUp();
  return found !== null && found.hasSubscribers ? PUBLISHING : null;
}
