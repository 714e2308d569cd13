import { escapeControlLine } from './escape-control';

/**
 * Collapses line breaks (and the whitespace around them) so the text fits on one line, and
 * shows every other control or bidi character escaped (`escapeControlLine`): the result is safe
 * to print on a terminal.
 */
export function oneLine(text: string): string {
  return escapeControlLine(text.replace(/\s*[\r\n]+\s*/g, ' '));
}

/** Cuts `text` to at most `width` characters, ending with `…` when something was cut. */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  return `${text.slice(0, Math.max(0, width - 1))}…`;
}
