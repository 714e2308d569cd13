import { stringifyJson } from '../wire/stringify-json';

/**
 * Characters that can drive a terminal or disguise text, wherever they sit: C0 controls other
 * than tab, newline and carriage return; DEL and the C1 controls (U+0080–U+009F, `\x9b` is a
 * one-byte CSI on some terminals); the bidi controls and invisible formatting characters that can
 * reorder or hide what is shown (U+061C, U+200B, U+200E–U+200F, U+2028–U+202E, U+2060–U+2064,
 * U+2066–U+206F, U+FEFF). The zero-width joiners U+200C and U+200D pass: Persian, Indic scripts
 * and emoji sequences need them, and they reorder nothing.
 */
const ALWAYS = '\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f\\u061c\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff';

/** Streamed text: newline, tab and a CR right before a newline stay; a lone CR (it rewrites the line) does not. */
const IN_TEXT = new RegExp(`[${ALWAYS}]|\\r(?!\\n)`, 'g');
/** One line: newline and CR are escaped too; tab stays. */
const IN_LINE = new RegExp(`[${ALWAYS}\\n\\r]`, 'g');
/** Inside `JSON.stringify` output, what it leaves raw: DEL, C1 and the bidi / invisible set. */
const IN_JSON = /[\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

/** `\xHH` up to U+00FF, `\uHHHH` above (every character escaped here is below U+10000). */
function visible(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

function jsonEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text without anything to escape comes back as the same string (no copy): the common case. */
function escapeMatches(text: string, pattern: RegExp, escape: (char: string) => string): string {
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  return text.replace(pattern, escape);
}

/**
 * Makes stream-derived text safe to stream to a terminal: every control character and bidi /
 * invisible formatting character is replaced by its visible form (`\x1b`, `\x9b`, `\x0d`,
 * `\u202e`), while newline, tab and CRLF stay so that text still reads as text. The result holds
 * no character `escapeControl` would change again.
 */
export function escapeControl(text: string): string {
  return escapeMatches(text, IN_TEXT, visible);
}

/**
 * Like `escapeControl`, for text that must stay on one line (labels, names, ids, error lines):
 * newline and CR are shown escaped too (`\x0a`, `\x0d`); tab stays.
 */
export function escapeControlLine(text: string): string {
  return escapeMatches(text, IN_LINE, visible);
}

/**
 * `JSON.stringify(value)` with the characters it leaves raw — DEL, C1, U+2028/U+2029 and the
 * other bidi / invisible formatting characters — written as `\uHHHH` escapes: still valid JSON
 * that parses to the same value, and safe to print on a terminal (JSON escapes C0 itself).
 * Those characters can only occur inside JSON strings, where a `\u` escape is valid.
 */
export function stringifyJsonLine(value: object): string {
  // A raw NDJSON event can nest deeper than JSON.stringify recurses.
  return escapeMatches(stringifyJson(value) ?? 'null', IN_JSON, jsonEscape);
}
