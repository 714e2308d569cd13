import { expect } from 'chai';
import type { FinishReason, TokenUsage } from '../../../lib/handler/types';
import { tokenUsage } from '../../../lib/handler/values';
import { OllamaMapper } from '../../../lib/providers/ollama/ollama-mapper';
import { StreamError } from '../../../lib/handler/stream-error';
import type { SseFrame } from '../../../lib/wire/types';
import { runFrames, type Step } from '../shared/mapper-harness';

const MODEL = 'llama-test';

function line(message: Record<string, unknown> | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = { model: MODEL, created_at: '2025-01-01T00:00:00Z' };
  if (message !== null) base.message = { role: 'assistant', ...message };
  return { ...base, done: false, ...extra };
}
function doneLine(reason: string | null = 'stop', message: Record<string, unknown> = { content: '' }): Record<string, unknown> {
  const counts = { total_duration: 100, prompt_eval_count: 10, eval_count: 4 };
  return line(message, reason === null ? { done: true, ...counts } : { done: true, done_reason: reason, ...counts });
}
function complete(finishReason: FinishReason | null, usage: TokenUsage | null = tokenUsage(10, 4)): Step {
  return ['complete', { id: null, modelName: MODEL, tokenUsage: usage, finishReason }, {}];
}
/** Runs parsed NDJSON lines through the shared harness (it only passes the events through). */
function run(lines: unknown[], truncatedFrame = false) {
  return runFrames(new OllamaMapper(), lines as SseFrame[], truncatedFrame);
}

describe('OllamaMapper', () => {
  it('maps message.content to partial responses and the done: true line to the complete response', () => {
    const { steps, returns } = run([line({ content: ' these' }), line({ content: ' times' }), doneLine()]);
    expect(steps).to.deep.equal([['text', ' these'], ['text', ' times'], complete('STOP')]);
    expect(returns).to.deep.equal([false, false, true]);
  });

  it('maps message.thinking to partial thinking, before the content of the same line', () => {
    const { steps } = run([line({ thinking: 'Hmm.' }), line({ thinking: ' Ok.', content: 'Yes' }), doneLine()]);
    expect(steps).to.deep.equal([['thinking', 'Hmm.'], ['thinking', ' Ok.'], ['text', 'Yes'], complete('STOP')]);
  });

  it('maps message.tool_calls to complete tool calls numbered 0, 1 … with their argument objects as JSON text in key order', () => {
    const calls = [
      { function: { name: 'get_weather', arguments: { location: 'Boston, MA', unit: 'F' } } },
      { function: { name: 'no_args' } },
      { id: 'call_3', function: { name: 'as_text', arguments: '{"raw": 1}' } },
    ];
    const { steps } = run([line({ content: '', tool_calls: calls.slice(0, 1) }), doneLine('stop', { content: '', tool_calls: calls.slice(1) })]);
    expect(steps).to.deep.equal([
      ['tool', 0, null, 'get_weather', '{"location":"Boston, MA","unit":"F"}'],
      ['tool', 1, null, 'no_args', '{}'],
      ['tool', 2, 'call_3', 'as_text', '{"raw": 1}'],
      complete('TOOL_EXECUTION'),
    ]);
  });

  it('keeps a line whose tool call has no name: the rest maps and the line also surfaces raw', () => {
    // The nameless call is call 0 (kept incomplete by the bridge); only the completed call counts.
    const mixed = line({ content: 'Calling.', tool_calls: [{ function: { arguments: {} } }, { function: { name: 'f', arguments: {} } }] });
    expect(run([mixed, doneLine()]).steps).to.deep.equal([['text', 'Calling.'], ['tool', 1, null, 'f', '{}'], ['raw', mixed], complete('TOOL_EXECUTION')]);
  });

  it('surfaces a line raw once, after its callbacks, when a tool-call entry is not an object', () => {
    const odd = line({ content: 'Calling.', tool_calls: [42, { function: { name: 'f', arguments: {} } }, 'x'] });
    expect(run([odd, doneLine()]).steps).to.deep.equal([['text', 'Calling.'], ['tool', 0, null, 'f', '{}'], ['raw', odd], complete('TOOL_EXECUTION')]);
  });

  it('maps done_reason length to LENGTH and another reason to OTHER; no done_reason is STOP', () => {
    expect(run([doneLine('length')]).steps).to.deep.equal([complete('LENGTH')]);
    expect(run([doneLine('unload')]).steps).to.deep.equal([complete('OTHER')]);
    expect(run([doneLine(null)]).steps).to.deep.equal([complete('STOP')]);
  });

  it('surfaces a line without a message, an empty message and a value that is not an object raw', () => {
    const generate = { model: MODEL, response: ' Yes', done: false };
    const empty = line({ content: '' });
    const { steps } = run([generate, empty, 42, doneLine()]);
    expect(steps).to.deep.equal([['raw', generate], ['raw', empty], ['raw', 42], complete('STOP')]);
  });

  it('reports an error line as one provider StreamError whose body is the error as sent, and stops reading', () => {
    const error = { error: 'an error was encountered while running the model' };
    const { steps, returns, errors } = run([line({ content: 'I' }), error, doneLine()]);
    expect(steps).to.deep.equal([
      ['text', 'I'],
      ['error', 'provider', 'an error was encountered while running the model'],
    ]);
    expect(returns).to.deep.equal([false, true]);
    expect((errors[0] as StreamError).body).to.equal('an error was encountered while running the model');
  });

  it('reads an error object with a message', () => {
    expect(run([{ error: { message: 'model not found' } }]).steps).to.deep.equal([['error', 'provider', 'model not found']]);
  });

  it('reports a stream that ends before done: true as truncated', () => {
    expect(run([line({ content: 'a' })]).steps.at(-1)).to.deep.equal(['error', 'truncated', 'The stream ended before the done: true line']);
    expect(
      run([line({ content: 'a' })], true)
        .steps.at(-1)
        ?.slice(0, 2),
    ).to.deep.equal(['error', 'truncated']);
  });
});
