import { anthropicProvider } from './anthropic/anthropic-descriptor';
import { bedrockConverseProvider } from './bedrock-converse/bedrock-converse-descriptor';
import { geminiProvider } from './gemini/gemini-descriptor';
import { ollamaProvider } from './ollama/ollama-descriptor';
import { openAIChatProvider } from './openai-chat/openai-chat-descriptor';
import { openAIResponsesProvider } from './openai-responses/openai-responses-descriptor';
import { partstreamFormat } from './partstream/partstream-descriptor';
import type { AnyProviderDescriptor } from './provider-descriptor';

/**
 * partstream's own providers, one descriptor each (SPEC §15): the one list of formats. Adding a
 * provider adds its line here; every format list, sniffing rule, client and replay follows.
 */
export const PROVIDERS = [openAIChatProvider, openAIResponsesProvider, anthropicProvider, geminiProvider, ollamaProvider, bedrockConverseProvider] as const;

/** The wire formats partstream reads, one per provider of the registry. */
export type WireFormat = (typeof PROVIDERS)[number]['format'];

/** Every body format partstream reads: a provider's wire format, or its own relay format `partstream` (SPEC §13). */
export type BodyFormat = WireFormat | 'partstream';

/** Every body format's descriptor, the relay's last: what `format: 'auto'` tries, in order. */
export const BODY_FORMATS: readonly AnyProviderDescriptor[] = [...PROVIDERS, partstreamFormat];

/** The descriptor of a body format partstream knows by name, or null. */
export function bodyFormatNamed(format: string): AnyProviderDescriptor | null {
  for (const descriptor of BODY_FORMATS) if (descriptor.format === format) return descriptor;
  return null;
}
