/** The `gen_ai.provider.name` of each of partstream's wire formats (GenAI semantic conventions). */
const PROVIDERS: Readonly<Record<string, string>> = Object.freeze({
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  ollama: 'ollama',
});

/** The `gen_ai.provider.name` for a format; the format's own name for one partstream does not know. */
export function providerName(format: string): string {
  return Object.prototype.hasOwnProperty.call(PROVIDERS, format) ? (PROVIDERS[format] as string) : format;
}

/** The `gen_ai.operation.name` for a format: `generate_content` for Gemini, else `chat`. */
export function operationName(format: string): string {
  return format === 'gemini' ? 'generate_content' : 'chat';
}
