import { describeSplits } from './split-suite';

describeSplits('OpenAIChatMapper', 'openai-chat', ['openai-chat/parallel-tool-calls.sse', 'openai-chat/refusal-logprobs.sse']);
describeSplits('AnthropicMapper', 'anthropic', ['anthropic/thinking-signature.sse', 'anthropic/sdk-incomplete-tool-json.sse', 'anthropic/tool-no-args.sse']);
