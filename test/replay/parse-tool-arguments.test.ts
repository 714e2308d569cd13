import { expect } from 'chai';
import type { ToolExecutionRequest } from '../../lib/handler/types';
import { toolCallPart } from '../../lib/parts/factories';
import { JsonSyntaxError } from '../../lib/replay/json-syntax-error';
import { parseToolArguments } from '../../lib/replay/parse-tool-arguments';

const request = (args: string, id: string | null = 'call_1', name = 'get_weather'): ToolExecutionRequest => ({ id, name, arguments: args });

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('parseToolArguments', () => {
  describe('valid arguments', () => {
    it('parses a ToolExecutionRequest', () => {
      expect(parseToolArguments(request('{"city": "Paris", "days": [1, 2]}'))).to.deep.equal({ city: 'Paris', days: [1, 2] });
    });

    it("parses a tool-call part's toolCall", () => {
      const part = toolCallPart({ id: 'call_2', type: 'function', name: 'search', arguments: '{"q":"x"}' });
      expect(parseToolArguments(part.toolCall)).to.deep.equal({ q: 'x' });
    });

    it('gives {} for empty, blank or null arguments, a new object each time', () => {
      const empty = parseToolArguments(request(''));
      expect(empty).to.deep.equal({});
      expect(parseToolArguments(request(' \t\r\n'))).to.deep.equal({});
      expect(parseToolArguments({ id: 'c', type: 'function', name: 'f', arguments: null })).to.deep.equal({});
      (empty as Record<string, unknown>).changed = true;
      expect(parseToolArguments(request(''))).to.deep.equal({});
    });

    it('returns any JSON value, not only objects', () => {
      expect(parseToolArguments(request('[1, "a"]'))).to.deep.equal([1, 'a']);
      expect(parseToolArguments(request(' 42 '))).to.equal(42);
      expect(parseToolArguments(request('null'))).to.equal(null);
    });

    it('keeps __proto__ a plain own key and writes to no prototype', () => {
      const value = parseToolArguments(request('{"__proto__": {"polluted": true}}')) as object;
      expect(Object.getOwnPropertyNames(value)).to.deep.equal(['__proto__']);
      expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('parses 100,000 levels of nesting', () => {
      const depth = 100_000;
      let value = parseToolArguments(request(`${'['.repeat(depth)}${']'.repeat(depth)}`));
      let levels = 0;
      while (Array.isArray(value)) {
        value = value[0];
        levels++;
      }
      expect(levels).to.equal(depth);
    });
  });

  describe('invalid arguments', () => {
    it('names the tool, its id, the position and the reason, quoting the text near the break', () => {
      const error = thrown(() => parseToolArguments(request('{"city": "Paris",}')));
      expect(error).to.be.instanceOf(SyntaxError);
      expect(JsonSyntaxError.isInstance(error)).to.equal(true);
      expect(error.name).to.equal('JsonSyntaxError');
      expect((error as JsonSyntaxError).position).to.equal(17);
      expect(error.message).to.equal(
        'The arguments of tool call "get_weather" (id "call_1") are not valid JSON: ' + 'at position 17, expected a string key, got "}" (near "{\\"city\\": \\"Paris\\",}")',
      );
      expect(JsonSyntaxError.isInstance(error.cause)).to.equal(true);
    });

    it('says when the arguments stop before the value is complete', () => {
      const error = thrown(() => parseToolArguments(request('{"city": "Par', null)));
      expect((error as JsonSyntaxError).position).to.equal(13);
      expect(error.message).to.equal(
        'The arguments of tool call "get_weather" (no id) are not valid JSON: ' + 'at position 13, the text ends before the JSON value is complete (near "{\\"city\\": \\"Par")',
      );
    });

    it('quotes at most 60 characters of long arguments, around the break', () => {
      const secret = 'S'.repeat(5000);
      const args = `{"key": "${secret}", "n": 1x}`;
      const error = thrown(() => parseToolArguments(request(args)));
      expect((error as JsonSyntaxError).position).to.equal(args.indexOf('x}'));
      expect(error.message).to.contain("expected ',' or '}', got \"x\"");
      expect(error.message).to.contain('(near …"SSSSSSSSSSSSSSSSSSSSS\\", \\"n\\": 1x}")');
      expect(error.message).not.to.contain('S'.repeat(31));
      expect(error.message.length).to.be.below(300);
    });

    it('escapes control characters of the arguments in the message', () => {
      const error = thrown(() => parseToolArguments(request('{"a": \u001b[31m}')));
      expect(error.message).to.contain('got "\\u001b"');
      expect(error.message).to.contain('near "{\\"a\\": \\u001b[31m}"');
      expect(error.message).not.to.contain('\u001b');
    });

    it('treats only JSON whitespace as blank: a no-break space is an error', () => {
      const error = thrown(() => parseToolArguments(request('\u00a0')));
      expect((error as JsonSyntaxError).position).to.equal(0);
      expect(error.message).to.contain('expected a value, got "\u00a0"');
    });

    it('shortens a long tool name or id', () => {
      const error = thrown(() => parseToolArguments(request('{', 'i'.repeat(500), 'n'.repeat(500))));
      expect(error.message).to.contain(`tool call "${'n'.repeat(64)}…" (id "${'i'.repeat(64)}…")`);
      expect(error.message).not.to.contain('n'.repeat(65));
    });

    it('locates the break in 100,000 levels of nesting without a RangeError', () => {
      const error = thrown(() => parseToolArguments(request('['.repeat(100_000))));
      expect(JsonSyntaxError.isInstance(error)).to.equal(true);
      expect((error as JsonSyntaxError).position).to.equal(100_000);
    });
  });

  describe('misuse', () => {
    it('rejects a value that is not a tool call', () => {
      expect(() => parseToolArguments(null as never)).to.throw(TypeError, 'Expected a tool call ({id, name, arguments}), got null');
      expect(() => parseToolArguments('{}' as never)).to.throw(TypeError, 'Expected a tool call ({id, name, arguments}), got string "{}"');
      expect(() => parseToolArguments([] as never)).to.throw(TypeError, 'Expected a tool call ({id, name, arguments}), got an array');
    });

    it('rejects arguments that are neither a string nor null, naming the call', () => {
      expect(() => parseToolArguments({ id: 'c1', name: 'f', arguments: 5 } as never)).to.throw(TypeError, 'Expected the arguments of tool call "f" (id "c1") to be a string or null, got number 5');
    });

    it('points from a whole tool-call part to its toolCall', () => {
      const part = toolCallPart({ id: 'c1', name: 'f', arguments: '{}' });
      expect(() => parseToolArguments(part as never)).to.throw(TypeError, "got undefined (pass a tool-call part's toolCall, not the part)");
    });
  });
});
