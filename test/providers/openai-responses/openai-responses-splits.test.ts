import { describeSplits } from '../shared/split-suite';

describeSplits('OpenAIResponsesMapper', 'openai-responses', ['openai-responses/reasoning-encrypted-1.sse', 'openai-responses/custom-tool.sse', 'openai-responses/error-insufficient-quota.sse']);
