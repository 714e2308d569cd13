/** The wire formats partstream reads. */
export type WireFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'ollama';

/** One decoded Server-Sent Event: the event name (or null) and its data lines joined by "\n", untouched. */
export interface SseFrame {
  readonly event: string | null;
  readonly data: string;
}
