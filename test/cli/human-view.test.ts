import { expect } from 'chai';
import { HumanView } from '../../lib/cli/human-view';
import { COLOUR_STYLE, PLAIN_STYLE, useColour } from '../../lib/cli/text-style';
import { HandlerCallbackError } from '../../lib/handler/handler-callback-error';
import { aiMessage, chatResponse, completeToolCall, partialResponse, partialThinking, partialToolCall, responseMetadata, tokenUsage } from '../../lib/handler/values';
import { reasoningPart, textPart, toolCallPart, unknownPart, withAttributes } from '../../lib/parts/factories';
import { StreamError } from '../../lib/handler/stream-error';

const signature = { provider: 'anthropic', kind: 'signature', data: 'c2ln' };

function plainView(width = 80): { view: HumanView; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const view = new HumanView({ write: (text) => out.push(text), writeError: (text) => err.push(text), style: PLAIN_STYLE, width });
  return { view, out, err };
}

describe('HumanView', () => {
  it('streams thinking, text and growing tool-call arguments under one label per section, raw events one line each', () => {
    const { view, out } = plainView();
    view.onPartialThinking(partialThinking('Let me '));
    view.onPartialThinking(partialThinking('think.'));
    view.onPartialThinking(partialThinking('', signature));
    view.onUnmappedRawEvent({ event: 'content_block_stop', data: '{"type":"content_block_stop",\n"index":0}' });
    view.onPartialResponse(partialResponse('Hel'));
    view.onPartialResponse(partialResponse('lo.'));
    view.onPartialToolCall(partialToolCall(0, 'call_1', 'get_weather', '{"city":'));
    view.onPartialToolCall(partialToolCall(0, 'call_1', 'get_weather', ' "Paris"}'));
    view.onCompleteToolCall(completeToolCall(0, { id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}' }));
    view.onUnmappedRawEvent({ done: true, model: 'llama' });

    expect(out.join('')).to.equal(
      [
        'thinking: Let me think. [anthropic signature, 4 chars]',
        'raw content_block_stop {"type":"content_block_stop", "index":0}',
        'text: Hello.',
        'tool call #0 get_weather call_1: {"city": "Paris"}',
        'tool call #0 complete: get_weather call_1 {"city": "Paris"}',
        'raw {"done":true,"model":"llama"}',
        '',
      ].join('\n'),
    );
    // Streaming means one write per delta, not one per line.
    expect(out.slice(0, 4)).to.deep.equal(['thinking: ', 'Let me ', 'think.', ' [anthropic signature, 4 chars]']);
  });

  it('starts a new labelled line when a second tool call interleaves with the first', () => {
    const { view, out } = plainView();
    view.onPartialToolCall(partialToolCall(0, null, 'a', '{"x":'));
    view.onPartialToolCall(partialToolCall(1, null, 'b', '{}'));
    view.onPartialToolCall(partialToolCall(0, null, 'a', '1}'));
    expect(out.join('')).to.equal('tool call #0 a: {"x":\ntool call #1 b: {}\ntool call #0 a: 1}');
  });

  it('cuts a long raw event to the width', () => {
    const { view, out } = plainView(30);
    view.onUnmappedRawEvent({ event: 'x', data: 'y'.repeat(100) });
    expect(out.join('')).to.equal(`raw x ${'y'.repeat(23)}…\n`);
  });

  it('ends with a summary of the final message: parts in order, usage, finish reason, id and model', () => {
    const { view, out } = plainView();
    view.onPartialResponse(partialResponse('Hi'));
    const parts = [
      reasoningPart('Think\nhard', { payload: signature }),
      unknownPart('anthropic', 'server_tool_use', '{"name":"web_search"}'),
      textPart('Hi'),
      toolCallPart({ id: 'call_1', type: 'function', name: 'f', arguments: '{"a":\n1}' }),
    ];
    const metadata = responseMetadata({ id: 'msg_1', modelName: 'claude', tokenUsage: tokenUsage(10, 5), finishReason: 'TOOL_EXECUTION' });
    view.onCompleteResponse(chatResponse(aiMessage(parts), metadata));

    expect(out.join('')).to.equal(
      [
        'text: Hi',
        '',
        '── final message ──',
        'parts (4):',
        '  1. reasoning   [anthropic signature] "Think\\nhard"',
        '  2. unknown     anthropic/server_tool_use {"name":"web_search"}',
        '  3. text        "Hi"',
        '  4. tool_call   f call_1 {"a": 1}',
        'usage: 10 input, 5 output, 15 total tokens',
        'finish reason: TOOL_EXECUTION',
        'id: msg_1   model: claude',
        '',
      ].join('\n'),
    );
  });

  it('marks a tool call that was cut off before it completed, ahead of anything the width may cut', () => {
    const { view, out } = plainView(60);
    const cut = withAttributes(toolCallPart({ id: 'call_2', type: 'function', name: 'g', arguments: '{"city": "Par' }), { incomplete: 'true' });
    const nameless = withAttributes(toolCallPart({ id: null, type: 'function', name: null, arguments: `{"x": "${'y'.repeat(80)}` }), { incomplete: 'true' });
    const whole = toolCallPart({ id: 'call_1', type: 'function', name: 'f', arguments: '{}' });
    view.onCompleteResponse(chatResponse(aiMessage([whole, cut, nameless]), responseMetadata({ finishReason: 'LENGTH' })));
    const lines = out.join('').split('\n');
    expect(lines.filter((line) => line.startsWith('  '))).to.deep.equal([
      '  1. tool_call   f call_1 {}',
      '  2. tool_call   INCOMPLETE (cut off) g call_2 {"city": "Par',
      `  3. tool_call   INCOMPLETE (cut off) (no name) {"x": "${'y'.repeat(4)}…`,
    ]);
  });

  it('says so when a response has no parts, usage or metadata', () => {
    const { view, out } = plainView();
    view.onCompleteResponse(chatResponse(aiMessage([])));
    expect(out.join('')).to.equal('\n── final message ──\nparts (0):\n  (none)\nusage: (not reported)\nfinish reason: (none)\nid: (none)   model: (none)\n');
  });

  it('writes a stream error as one line to the error output, after ending the current line', () => {
    const { view, out, err } = plainView();
    view.onPartialResponse(partialResponse('Hel'));
    view.onError(new HandlerCallbackError('onPartialResponse', new Error('oops')));
    view.onError(new StreamError('truncated', 'The stream ended\nbefore message_stop'));
    expect({ out: out.join(''), err }).to.deep.equal({
      out: 'text: Hel\n',
      err: ['partstream: handler error: Handler callback onPartialResponse threw: oops\n', 'partstream: stream error: The stream ended before message_stop\n'],
    });
  });

  it('shows control characters from the stream escaped, keeping newlines in streamed text and putting names and errors on one line', () => {
    const { view, out, err } = plainView();
    view.onPartialResponse(partialResponse('a\u001b[2J\nb\rc\r\n'));
    view.onPartialToolCall(partialToolCall(0, 'id\u009b', 'f\u001b]0;t\u0007\n', '{"x":"\u202e"}'));
    view.onUnmappedRawEvent({ event: 'x\u0007', data: '{"y":"\u007f"}' });
    view.onError(new StreamError('provider', 'bad\u001b[31m\nframe\r'));
    expect({ out: out.join(''), err }).to.deep.equal({
      out: 'text: a\\x1b[2J\nb\\x0dc\r\ntool call #0 f\\x1b]0;t\\x07\\x0a id\\x9b: {"x":"\\u202e"}\nraw x\\x07 {"y":"\\x7f"}\n',
      err: ['partstream: stream error: bad\\x1b[31m frame\\x0d\n'],
    });
  });

  it('dims and italicises thinking with ANSI styles when given the colour style, leaving text plain', () => {
    const out: string[] = [];
    const view = new HumanView({ write: (text) => out.push(text), writeError: () => undefined, style: COLOUR_STYLE, width: 80 });
    view.onPartialThinking(partialThinking('hmm'));
    view.onPartialResponse(partialResponse('ok'));
    expect(out).to.deep.equal(['\u001b[1mthinking: \u001b[22m', '\u001b[2;3mhmm\u001b[22;23m', '\n', '\u001b[1mtext: \u001b[22m', 'ok']);
  });
});

describe('useColour', () => {
  it('colours only a terminal, and not when NO_COLOR is non-empty or TERM is dumb', () => {
    expect([
      useColour(true, {}),
      useColour(false, {}),
      useColour(undefined, {}),
      useColour(true, { NO_COLOR: '1' }),
      useColour(true, { NO_COLOR: '' }),
      useColour(true, { TERM: 'dumb' }),
    ]).to.deep.equal([true, false, false, false, true, false]);
  });
});
