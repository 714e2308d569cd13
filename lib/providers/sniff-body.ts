import { sniffText, type SniffResult } from '../wire/sniff-format';
import { BODY_FORMATS, bodyFormatNamed } from './registry';

/**
 * `sniffText` with partstream's own formats: which of them the first text of a body is, or —
 * with `expected` naming one — whether the body is that format's framing at all (see `sniffText`).
 * An unknown `expected` name is a `TypeError`.
 */
export function sniffFormat(body: string, ended: boolean, expected = 'auto'): SniffResult {
  if (expected === 'auto') return sniffText(body, ended, { expected: null, candidates: BODY_FORMATS });
  const named = bodyFormatNamed(expected);
  if (named === null) throw new TypeError(`Expected a format partstream knows, got ${JSON.stringify(expected)}`);
  return sniffText(body, ended, { expected: named, candidates: [named] });
}
