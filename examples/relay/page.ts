/**
 * The example page's script (bundled for the browser by main.ts): starts a response, follows it
 * with followRelay — which resumes after a dropped connection, an offline spell or a background
 * tab, delivering each event once — shows reasoning and text as they come, and stops it on demand.
 * Open `/?id=<response id>` to follow a response started elsewhere (another tab, another process).
 */
import type { ChatResponse } from 'partstream';
import { followRelay } from 'partstream/relay';

/** The little of the DOM this page uses (the project compiles without the DOM typings). */
interface Element {
  textContent: string | null;
  disabled?: boolean;
  addEventListener(type: 'click', listener: () => void): void;
}
interface PageGlobals {
  readonly document: { getElementById(id: string): Element | null };
  readonly location: { readonly href: string; readonly search: string };
  /** What a test reads: the status, the text as it came live, the final text and how many times a response ended. */
  __relayExample?: { status: string; liveText: string; finalText: string | null; completions: number; responseId: string | null };
}

const page = globalThis as unknown as PageGlobals;
const element = (id: string): Element => {
  const found = page.document.getElementById(id);
  if (found === null) throw new Error(`Expected #${id} on the page`);
  return found;
};
const [ask, stop, status, reasoning, text] = ['ask', 'stop', 'status', 'reasoning', 'text'].map(element) as [Element, Element, Element, Element, Element];
const state = (page.__relayExample = { status: 'idle', liveText: '', finalText: null as string | null, completions: 0, responseId: null as string | null });

function show(now: string): void {
  state.status = now;
  status.textContent = now;
}

async function follow(responseId: string): Promise<void> {
  state.responseId = responseId;
  reasoning.textContent = '';
  text.textContent = '';
  state.liveText = '';
  stop.disabled = false;
  ask.disabled = true;
  show('streaming');
  const url = new URL(`/responses/${encodeURIComponent(responseId)}/events`, page.location.href).href;
  await followRelay(url, {
    onPartialThinking: (partial) => void (reasoning.textContent += partial.text),
    onPartialResponse: (partial) => {
      state.liveText += partial.text;
      text.textContent += partial.text;
    },
    onCompleteResponse: (response: ChatResponse) => {
      state.completions += 1;
      state.finalText = response.aiMessage.text;
      // The final message is the authority: what was shown live is replaced by it, once.
      text.textContent = response.aiMessage.text;
      show(response.metadata.providerFinishReason === 'cancelled' ? 'stopped' : 'done');
    },
    onError: (error) => show(`failed: ${error.message}`),
  });
  stop.disabled = true;
  ask.disabled = false;
}

ask.addEventListener('click', () => {
  void (async () => {
    const response = await fetch('/responses', { method: 'POST' });
    const { id } = (await response.json()) as { id: string };
    await follow(id);
  })().catch((error: unknown) => show(`failed: ${String(error)}`));
});

stop.addEventListener('click', () => {
  if (state.responseId !== null) void fetch(`/responses/${encodeURIComponent(state.responseId)}/stop`, { method: 'POST' });
});

const given = new URLSearchParams(page.location.search).get('id');
if (given !== null) void follow(given).catch((error: unknown) => show(`failed: ${String(error)}`));
