// Hand-written OpenAI Chat Completions stream pieces for the relay's process tests: one text delta
// per chunk, then a finish chunk and `[DONE]`. The words are known, so every expected text is a
// literal joined here, never read back from the code under test.

/** The SSE chunk that carries `text` as one content delta (JSON-escaped). */
export function textChunk(text: string): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-relay', object: 'chat.completion.chunk', model: 'gpt-test', choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
}

/** The chunk with the reasoning `text` (as OpenAI-compatible servers send `reasoning_content`). */
export function reasoningChunk(text: string): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-relay', object: 'chat.completion.chunk', model: 'gpt-test', choices: [{ index: 0, delta: { reasoning_content: text } }] })}\n\n`;
}

/** The last two events: `finish_reason: stop`, then `[DONE]`. */
export const FINISH = `data: ${JSON.stringify({ id: 'chatcmpl-relay', object: 'chat.completion.chunk', model: 'gpt-test', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

/** Word `j` of response `tag` (what a test expects the final text to be made of). */
export function word(tag: string, j: number): string {
  return `${tag}w${j} `;
}

/** The whole text of `count` words of `tag`. */
export function wordsText(tag: string, count: number): string {
  let text = '';
  for (let j = 0; j < count; j += 1) text += word(tag, j);
  return text;
}
