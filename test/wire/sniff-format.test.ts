import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES_ABSENT } from '../support/recorded-fixtures';
import { noteSkipped } from '../support/skips';
import { SNIFF_LIMIT, type SniffResult } from '../../lib/wire/sniff-format';
import { sniffFormat } from '../../lib/providers/sniff-body';

type FormatOption = string;

/** The result as plain data: the format, `undecided`, or the error's kind and message. */
function sniff(text: string, ended = true, expected: FormatOption = 'auto'): string {
  return show(sniffFormat(text, ended, expected));
}

function show(result: SniffResult): string {
  switch (result.type) {
    case 'undecided':
      return 'undecided';
    case 'format':
      return result.format;
    case 'failed':
      return `${result.error.kind}: ${result.error.message}`;
  }
}

describe('sniffFormat', () => {
  describe('recognises each format from its first frames', () => {
    const table: [string, string, string][] = [
      ['Anthropic by event name', 'event: message_start\ndata: {"type":"message_start","message":{}}\n\n', 'anthropic'],
      ['Anthropic by event name, before its data arrived', 'event: message_start\nda', 'anthropic'],
      ['Anthropic by data type, without event names', 'data: {"type":"message_start","message":{}}\n\n', 'anthropic'],
      ['an Anthropic error event', 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n', 'anthropic'],
      ['OpenAI Responses by event name', 'event: response.created\ndata: {"type":"response.created"}\n\n', 'openai-responses'],
      ['OpenAI Responses by data type', 'data: {"type":"response.output_text.delta","delta":"x"}\n\n', 'openai-responses'],
      ['an OpenAI Responses error event', 'event: error\ndata: {"type":"error","code":"insufficient_quota","message":"quota"}\n\n', 'openai-responses'],
      ['OpenAI Chat by its chunk object', 'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n', 'openai-chat'],
      ['OpenAI Chat by choices (an Azure filter chunk)', 'data: {"choices":[],"prompt_filter_results":[]}\n\n', 'openai-chat'],
      ['OpenAI Chat after keep-alive comments', ': PROCESSING\n\n: PROCESSING\n\ndata: {"choices":[]}\n\n', 'openai-chat'],
      ['OpenAI Chat from a bare [DONE]', 'data: [DONE]\n\n', 'openai-chat'],
      ['Gemini by candidates, CRLF framing', 'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}\r\n\r\n', 'gemini'],
      ['Gemini by usageMetadata alone', 'data: {"usageMetadata":{"promptTokenCount":3}}\n\n', 'gemini'],
      ['Ollama by message', '{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"Hi"},"done":false}\n', 'ollama'],
      ['Ollama by done', '{"done":true,"done_reason":"stop"}\n', 'ollama'],
      ['a last frame without its blank line', 'data: {"candidates":[]}', 'gemini'],
    ];
    for (const [what, text, format] of table) {
      it(what, () => expect(sniff(text)).to.equal(format));
    }
  });

  describe('waits for what it needs', () => {
    const table: [string, string][] = [
      ['a first data line still arriving', 'data: {"choi'],
      ['an event name still arriving', 'event: mess'],
      ['a first NDJSON line still arriving', '{"model":"llama3.2","created_'],
      ['a pretty-printed JSON document before its end', '{\n  "error": {\n    "code": 404,\n'],
      ['a data line of an unknown event before its blank line', 'event: other\ndata: {"type":"x"}\n'],
      ['nothing but whitespace', '\n\n'],
    ];
    for (const [what, text] of table) {
      it(what, () => expect(sniff(text, false)).to.equal('undecided'));
    }
  });

  describe('fails for a body that is no known stream', () => {
    const table: [string, string, string][] = [
      [
        'an HTML page',
        '<html><body>502 Bad Gateway</body></html>',
        'format: Expected a stream of a known format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, Ollama, Amazon Bedrock ConverseStream or a partstream relay), got an HTML document: "<html><body>502 Bad Gateway</body></html>"',
      ],
      [
        'plain text',
        '404 page not found\n',
        'format: Expected a stream of a known format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, Ollama, Amazon Bedrock ConverseStream or a partstream relay), got text that is not Server-Sent Events: "404 page not found"',
      ],
      [
        'a pretty-printed JSON error body, with the provider message',
        '{\n  "error": {\n    "code": 404,\n    "message": "models/x is not found",\n    "status": "NOT_FOUND"\n  }\n}\n',
        'provider: models/x is not found',
      ],
      ['an Ollama error line', '{"error":"model \'x\' not found"}\n', "provider: model 'x' not found"],
      ['an SSE error chunk of no known format', 'data: {"error":{"message":"Invalid API key","type":"invalid_request_error"}}\n\n', 'provider: Invalid API key'],
      [
        'a JSON array (Gemini without alt=sse)',
        '[{"candidates": []}\n]',
        'format: Expected a stream of a known format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, Ollama, Amazon Bedrock ConverseStream or a partstream relay), got a JSON document, not a stream: "[{\\"candidates\\": []}\\n]"',
      ],
      [
        'NDJSON of no known shape',
        '{"foo":1}\n',
        'format: Expected a stream of a known format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, Ollama, Amazon Bedrock ConverseStream or a partstream relay), got JSON of no known shape: "{\\"foo\\":1}"',
      ],
      [
        'SSE whose first event matches no format',
        'data: {"foo":1}\n\n',
        'format: Expected a stream of a known format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, Ollama, Amazon Bedrock ConverseStream or a partstream relay), got an SSE stream whose first event matches none of them: "data: {\\"foo\\":1}"',
      ],
      [
        'SSE whose data is not JSON',
        'data: hello\n\n',
        'format: Expected a stream of a known format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, Ollama, Amazon Bedrock ConverseStream or a partstream relay), got an SSE event whose data is not a JSON object: "data: hello"',
      ],
      [
        'an empty body',
        '',
        'truncated: The stream ended before its first event: the body was empty (expected a stream of a known format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, Ollama, Amazon Bedrock ConverseStream or a partstream relay))',
      ],
      [
        'a body of comments only',
        ': ping\n\n',
        'truncated: The stream ended before its first event (expected a stream of a known format (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, Ollama, Amazon Bedrock ConverseStream or a partstream relay))',
      ],
    ];
    for (const [what, text, expected] of table) {
      it(what, () => expect(sniff(text)).to.equal(expected));
    }

    it('quotes the first line only once it is complete or long enough', () => {
      expect(sniff('<html><bo', false)).to.equal('undecided');
      expect(sniff('<html>\n<bo', false)).to.match(/got an HTML document: "<html>"$/);
      expect(sniff(`<p>${'x'.repeat(200)}`, false)).to.equal(sniff(`<p>${'x'.repeat(300)}\n`, true));
    });

    it(`gives up after ${SNIFF_LIMIT} characters without a frame`, () => {
      expect(sniff(`data: ${'x'.repeat(SNIFF_LIMIT)}`, false)).to.match(/^format: Expected .*, got no recognisable frame in the first 1048576 characters: /);
    });
  });

  describe('with an expected format', () => {
    it('accepts the framing at the first event line, whatever its content', () => {
      expect(sniff('data: {"foo":1}\n', false, 'gemini')).to.equal('gemini');
      expect(sniff(': ok\n\nevent: x\n', false, 'anthropic')).to.equal('anthropic');
      expect(sniff('{"foo":1}\n', false, 'ollama')).to.equal('ollama');
    });

    it('judges a line still arriving by its field name', () => {
      expect(sniff('data: {"cand', false, 'gemini')).to.equal('gemini');
      expect(sniff('dat', false, 'gemini')).to.equal('undecided');
    });

    it('decides a first frame longer than the limit the same way whether it arrived whole or not', () => {
      const huge = `data: {"candidates":[{"content":{"parts":[{"text":"${'x'.repeat(SNIFF_LIMIT)}"}]}}]}\n\n`;
      expect([sniff(huge, true, 'gemini'), sniff(huge.slice(0, SNIFF_LIMIT + 5), false, 'gemini')]).to.deep.equal(['gemini', 'gemini']);
      const auto = [sniff(huge, true), sniff(huge.slice(0, SNIFF_LIMIT + 5), false)];
      expect(auto[0]).to.match(/^format: .*no recognisable frame in the first 1048576 characters/);
      expect(auto[1]).to.equal(auto[0]);
    });

    it('leaves an empty body to the format (its mapper reports the truncation)', () => {
      expect(sniff('', true, 'gemini')).to.equal('gemini');
    });

    it('refuses the other framing, naming what was expected and found', () => {
      expect(sniff('data: {"done":true}\n\n', false, 'ollama')).to.equal('format: Expected an Ollama /api/chat stream (NDJSON), got Server-Sent Events: "data: {\\"done\\":true}"');
      expect(sniff('{"done":true}\n', false, 'openai-chat')).to.equal('format: Expected an OpenAI Chat Completions stream (Server-Sent Events), got JSON instead: "{\\"done\\":true}"');
    });

    it('leaves an Ollama body whose only line was cut to the NDJSON decoder', () => {
      expect(sniff('{"model":"m","mess', true, 'ollama')).to.equal('ollama');
    });

    it('still reports a JSON error body as the provider error', () => {
      expect(sniff('{"error":{"message":"bad key","type":"authentication_error"}}', true, 'anthropic')).to.equal('provider: bad key');
    });
  });

  describe('the recorded fixtures', function () {
    const fixtures = path.resolve(__dirname, '../..', '../shared/fixtures');
    if (!existsSync(path.join(fixtures, 'manifest.json'))) {
      it('are absent: skipped', function () {
        noteSkipped(FIXTURES_ABSENT, 'sniffFormat over the recorded fixtures');
        this.skip();
      });
      return;
    }
    const manifest = JSON.parse(readFileSync(path.join(fixtures, 'manifest.json'), 'utf8')) as { file: string; format: string; expected: { error: string | null } }[];
    for (const entry of manifest) {
      const text = readFileSync(path.join(fixtures, entry.file), 'utf8');
      if (entry.file.endsWith('.json')) {
        it(`reports ${entry.file} as the provider error`, () => expect(sniff(text)).to.equal(`provider: ${entry.expected.error}`));
      } else if (text === '') {
        it(`reports ${entry.file} as truncated`, () => expect(sniff(text)).to.match(/^truncated: /));
      } else {
        it(`recognises ${entry.file} as ${entry.format}`, () => expect(sniff(text)).to.equal(entry.format));
      }
    }
  });
});
