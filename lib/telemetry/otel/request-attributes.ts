import type { Attributes } from '@opentelemetry/api';

type Fields = Readonly<Record<string, unknown>>;

function fields(value: unknown): Fields | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : null;
}

function setNumber(into: Attributes, name: string, value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) into[name] = value;
}

function setStrings(into: Attributes, name: string, value: unknown): void {
  if (typeof value === 'string') into[name] = [value];
  else if (Array.isArray(value)) {
    const strings = value.filter((entry): entry is string => typeof entry === 'string');
    if (strings.length > 0) into[name] = strings;
  }
}

/** The sampling knobs every provider names its own way: `gen_ai.request.*` from `names` (attribute suffix → request field). */
function copy(into: Attributes, source: Fields, names: Readonly<Record<string, string>>): void {
  for (const [suffix, field] of Object.entries(names)) setNumber(into, `gen_ai.request.${suffix}`, source[field]);
}

function choiceCount(into: Attributes, value: unknown): void {
  if (typeof value === 'number' && Number.isInteger(value) && value !== 1) into['gen_ai.request.choice.count'] = value;
}

function serviceTier(into: Attributes, value: unknown): void {
  if (typeof value === 'string' && value !== 'auto') into['openai.request.service_tier'] = value;
}

/**
 * The `gen_ai.request.*` (and `openai.*`) attributes of a provider request body as sent, by
 * format; none for a format partstream does not know or a body that is not an object. Built only
 * for a recording span.
 */
export function requestAttributes(format: string, request: unknown): Attributes {
  const into: Attributes = {};
  const body = fields(request);
  if (body === null) return into;
  switch (format) {
    case 'openai-chat': {
      into['openai.api.type'] = 'chat_completions';
      setNumber(into, 'gen_ai.request.max_tokens', body.max_completion_tokens ?? body.max_tokens);
      copy(into, body, { temperature: 'temperature', top_p: 'top_p', frequency_penalty: 'frequency_penalty', presence_penalty: 'presence_penalty', seed: 'seed' });
      setStrings(into, 'gen_ai.request.stop_sequences', body.stop);
      choiceCount(into, body.n);
      const type = fields(body.response_format)?.type;
      if (type === 'json_object' || type === 'json_schema') into['gen_ai.output.type'] = 'json';
      serviceTier(into, body.service_tier);
      break;
    }
    case 'openai-responses': {
      into['openai.api.type'] = 'responses';
      copy(into, body, { max_tokens: 'max_output_tokens', temperature: 'temperature', top_p: 'top_p' });
      const type = fields(fields(body.text)?.format)?.type;
      if (type === 'json_object' || type === 'json_schema') into['gen_ai.output.type'] = 'json';
      serviceTier(into, body.service_tier);
      break;
    }
    case 'anthropic':
      copy(into, body, { max_tokens: 'max_tokens', temperature: 'temperature', top_p: 'top_p', top_k: 'top_k' });
      setStrings(into, 'gen_ai.request.stop_sequences', body.stop_sequences);
      break;
    case 'gemini': {
      const config = fields(body.generationConfig) ?? {};
      copy(into, config, {
        max_tokens: 'maxOutputTokens', temperature: 'temperature', top_p: 'topP', top_k: 'topK', seed: 'seed',
        frequency_penalty: 'frequencyPenalty', presence_penalty: 'presencePenalty',
      });
      setStrings(into, 'gen_ai.request.stop_sequences', config.stopSequences);
      choiceCount(into, config.candidateCount);
      if (config.responseMimeType === 'application/json') into['gen_ai.output.type'] = 'json';
      break;
    }
    case 'ollama': {
      const options = fields(body.options) ?? {};
      copy(into, options, {
        max_tokens: 'num_predict', temperature: 'temperature', top_p: 'top_p', top_k: 'top_k', seed: 'seed',
        frequency_penalty: 'frequency_penalty', presence_penalty: 'presence_penalty',
      });
      setStrings(into, 'gen_ai.request.stop_sequences', options.stop);
      if (body.format !== undefined && body.format !== null && body.format !== '') into['gen_ai.output.type'] = 'json';
      break;
    }
    default:
      break;
  }
  return into;
}
