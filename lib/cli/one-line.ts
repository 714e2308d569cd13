import { escapeControlLine } from './escape-control';

/**
 * Whitespace runs, each taken whole: a run is matched once from its start, never re-scanned from
 * every position inside it, so a megabyte of spaces costs linear time (`\s*\n\s*` would not).
 */
const WHITESPACE_RUN = /\s+/g;

function collapseBreak(run: string): string {
  return run.includes('\n') ? ' ' : run;
}

/**
 * Collapses each line break (and the whitespace around it) to one space so the text fits on one
 * line, and shows every other control or bidi character escaped (`escapeControlLine`; a lone CR
 * becomes `\x0d`): the result is safe to print on a terminal. Linear in the length of `text`.
 */
export function oneLine(text: string): string {
  return escapeControlLine(text.includes('\n') ? text.replace(WHITESPACE_RUN, collapseBreak) : text);
}

/** Cuts `text` to at most `width` characters, ending with `…` when something was cut. */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  return `${text.slice(0, Math.max(0, width - 1))}…`;
}
