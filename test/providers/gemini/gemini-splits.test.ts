import { describeSplits } from '../shared/split-suite';

describeSplits('GeminiMapper', 'gemini', ['gemini/vertex-partial-args.sse', 'gemini/thinking-parallel-partial-args.sse', 'gemini/reasoning-signature-text.sse']);
