/**
 * Named strings that exercise every JSON escape, astral characters and lone surrogates (which
 * `JSON.stringify` writes as `\u` escapes), and an HTML-looking tail: what a hand-written JSON
 * string writer must get exactly as `JSON.stringify` does.
 */
export const JSON_ESCAPE_CASES: readonly string[] = [
  '',
  'plain text',
  'TΩ\t.Xè',
  '中文',
  '🦀 crab',
  'a"b',
  'a\\b',
  'line\nbreak',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028\u2029',
  'lone \ud800',
  'lone \udc00 low',
  '\ud83e',
  'x\udd80',
  '\udd80\ud83e',
  '🧪\ud83e',
  '</script>',
];
