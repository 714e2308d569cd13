import { describeValue } from '../parts/describe-value';
import { AnthropicMapper } from './anthropic/anthropic-mapper';
import { GeminiMapper } from './gemini/gemini-mapper';
import { OllamaMapper } from './ollama/ollama-mapper';
import { OpenAIChatMapper } from './openai-chat/openai-chat-mapper';
import { OpenAIResponsesMapper } from './openai-responses/openai-responses-mapper';
import type { MapperFactory } from './stream-mapper';

/** partstream's own mapper for each wire format. */
export const defaultMapperFactory: MapperFactory = (format) => {
  switch (format) {
    case 'openai-chat':
      return new OpenAIChatMapper();
    case 'openai-responses':
      return new OpenAIResponsesMapper();
    case 'anthropic':
      return new AnthropicMapper();
    case 'gemini':
      return new GeminiMapper();
    case 'ollama':
      return new OllamaMapper();
    default:
      return assertNever(format);
  }
};

function assertNever(value: never): never {
  throw new TypeError(`Expected a wire format, got ${describeValue(value)}`);
}
