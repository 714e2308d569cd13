/** How the human view sets text apart: ANSI styles on a colour terminal, identity otherwise. */
export interface TextStyle {
  /** Reasoning text. */
  thinking(text: string): string;
  /** Section labels (`thinking`, `text`, `tool call #0 …`). */
  label(text: string): string;
  /** Raw-event lines and other secondary detail. */
  dim(text: string): string;
  /** Error lines. */
  error(text: string): string;
}

const ESC = '\u001b[';

/** ANSI styles (dim, italic, bold, red), each closed right after its text. */
export const COLOUR_STYLE: TextStyle = Object.freeze({
  thinking: (text: string) => `${ESC}2;3m${text}${ESC}22;23m`,
  label: (text: string) => `${ESC}1m${text}${ESC}22m`,
  dim: (text: string) => `${ESC}2m${text}${ESC}22m`,
  error: (text: string) => `${ESC}31m${text}${ESC}39m`,
});

/** No styling at all: the text as it is. */
export const PLAIN_STYLE: TextStyle = Object.freeze({
  thinking: (text: string) => text,
  label: (text: string) => text,
  dim: (text: string) => text,
  error: (text: string) => text,
});

/**
 * Colour only on a terminal, and never when `NO_COLOR` is set to a non-empty value or `TERM` is
 * `dumb` (https://no-color.org).
 */
export function useColour(isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  if (isTTY !== true) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}
