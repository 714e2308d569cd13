import { expect } from 'chai';
import { escapeControl, escapeControlLine, stringifyJsonLine } from '../../lib/cli/escape-control';
import { oneLine } from '../../lib/cli/one-line';

/** [input, escapeControl (streamed text), escapeControlLine (one line)], expected values written by hand. */
const TABLE: readonly (readonly [string, string, string])[] = [
  ['plain text, ünïcödé, emoji 👋', 'plain text, ünïcödé, emoji 👋', 'plain text, ünïcödé, emoji 👋'],
  ['NUL \u0000 BEL \u0007 BS \u0008', 'NUL \\x00 BEL \\x07 BS \\x08', 'NUL \\x00 BEL \\x07 BS \\x08'],
  ['tab\there', 'tab\there', 'tab\there'],
  ['line\nbreak', 'line\nbreak', 'line\\x0abreak'],
  ['crlf\r\nline', 'crlf\r\nline', 'crlf\\x0d\\x0aline'],
  ['lone\rCR', 'lone\\x0dCR', 'lone\\x0dCR'],
  ['CR at the end\r', 'CR at the end\\x0d', 'CR at the end\\x0d'],
  ['two CRs\r\r\n', 'two CRs\\x0d\r\n', 'two CRs\\x0d\\x0d\\x0a'],
  ['VT \u000b FF \u000c SO \u000e US \u001f', 'VT \\x0b FF \\x0c SO \\x0e US \\x1f', 'VT \\x0b FF \\x0c SO \\x0e US \\x1f'],
  ['title \u001b]0;pwned\u0007', 'title \\x1b]0;pwned\\x07', 'title \\x1b]0;pwned\\x07'],
  ['clear \u001b[2J', 'clear \\x1b[2J', 'clear \\x1b[2J'],
  ['link \u001b]8;;http://x.test/\u001b\\ok\u001b]8;;\u001b\\', 'link \\x1b]8;;http://x.test/\\x1b\\ok\\x1b]8;;\\x1b\\', 'link \\x1b]8;;http://x.test/\\x1b\\ok\\x1b]8;;\\x1b\\'],
  ['DEL \u007f', 'DEL \\x7f', 'DEL \\x7f'],
  ['C1 \u0080 \u0085 \u009b31m \u009f', 'C1 \\x80 \\x85 \\x9b31m \\x9f', 'C1 \\x80 \\x85 \\x9b31m \\x9f'],
  ['Latin-1 stays: \u00a0é\u00ff', 'Latin-1 stays: \u00a0é\u00ff', 'Latin-1 stays: \u00a0é\u00ff'],
  ['bidi \u202a\u202b\u202c\u202d\u202e', 'bidi \\u202a\\u202b\\u202c\\u202d\\u202e', 'bidi \\u202a\\u202b\\u202c\\u202d\\u202e'],
  ['isolates \u2066\u2067\u2068\u2069', 'isolates \\u2066\\u2067\\u2068\\u2069', 'isolates \\u2066\\u2067\\u2068\\u2069'],
  ['marks \u200b\u200e\u200f\u061c', 'marks \\u200b\\u200e\\u200f\\u061c', 'marks \\u200b\\u200e\\u200f\\u061c'],
  ['separators \u2028\u2029 BOM \ufeff', 'separators \\u2028\\u2029 BOM \\ufeff', 'separators \\u2028\\u2029 BOM \\ufeff'],
  ['invisible operators \u2060\u2064 deprecated \u206a\u206f', 'invisible operators \\u2060\\u2064 deprecated \\u206a\\u206f', 'invisible operators \\u2060\\u2064 deprecated \\u206a\\u206f'],
  ['joiners stay: می\u200cخواهم 👨\u200d👩', 'joiners stay: می\u200cخواهم 👨\u200d👩', 'joiners stay: می\u200cخواهم 👨\u200d👩'],
  ['a literal \\x1b stays as written', 'a literal \\x1b stays as written', 'a literal \\x1b stays as written'],
];

describe('escapeControl and escapeControlLine', () => {
  for (const [input, text, line] of TABLE) {
    it(`show ${JSON.stringify(input)} as ${JSON.stringify(text)} in streamed text and ${JSON.stringify(line)} on one line`, () => {
      expect([escapeControl(input), escapeControlLine(input)]).to.deep.equal([text, line]);
    });
  }

  it('change nothing more when applied again', () => {
    const all = TABLE.map(([input]) => input).join('');
    expect([escapeControl(escapeControl(all)), escapeControlLine(escapeControlLine(all))]).to.deep.equal([escapeControl(all), escapeControlLine(all)]);
  });
});

describe('oneLine', () => {
  it('collapses line breaks with the whitespace around them, keeps other whitespace, and escapes a lone CR and controls', () => {
    expect([
      oneLine('The stream ended\n  before message_stop'),
      oneLine('a \r\n\r\n b'),
      oneLine('keep  two spaces\tand a tab'),
      oneLine('lone\rCR'),
      oneLine('esc \u001b[2J\nnext \u009b'),
    ]).to.deep.equal(['The stream ended before message_stop', 'a b', 'keep  two spaces\tand a tab', 'lone\\x0dCR', 'esc \\x1b[2J next \\x9b']);
  });
});

describe('stringifyJsonLine', () => {
  it('writes DEL, C1, U+2028/U+2029 and bidi characters as \\u escapes, C0 as JSON does, and parses back to the same value', () => {
    const value = { text: 'a\u001b[2J\u007f\u009b\u2028\u2029\u202e\u200b\ufeff\r\n\t"é👋\u200d' };
    const line = stringifyJsonLine(value);
    expect({ line, parsed: JSON.parse(line) as unknown }).to.deep.equal({
      line: '{"text":"a\\u001b[2J\\u007f\\u009b\\u2028\\u2029\\u202e\\u200b\\ufeff\\r\\n\\t\\"é👋\u200d"}',
      parsed: value,
    });
  });

  it('returns plain JSON unchanged', () => {
    expect(stringifyJsonLine({ event: 'partialResponse', text: 'Grüße 👋' })).to.equal('{"event":"partialResponse","text":"Grüße 👋"}');
  });
});
