import { describeSplits } from '../shared/split-suite';

describeSplits('OllamaMapper', 'ollama', ['ollama/sk-phi3-text-tail.ndjson', 'ollama/sk-parallel-tool-calls.ndjson', 'ollama/docs-midstream-error.ndjson']);
