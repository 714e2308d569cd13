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

/** `FORCE_COLOR` values that force colour on, as Node's own `util` and `tty` read them (levels 1–3). */
const FORCE_COLOR_ON: ReadonlySet<string> = new Set(['', '1', 'true', '2', '3']);

/**
 * Whether to colour the output. `FORCE_COLOR`, when set, decides alone, as in Node's `util` and
 * `tty` (and chalk): `1`, `2`, `3`, `true` or empty force colour on, even when piped and over
 * `NO_COLOR` and `TERM=dumb`; any other value (`0`, `false`, …) turns it off. Without it: colour
 * only on a terminal, and never when `NO_COLOR` is set to a non-empty value or `TERM` is `dumb`
 * (https://no-color.org).
 */
export function useColour(isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.FORCE_COLOR !== undefined) return FORCE_COLOR_ON.has(env.FORCE_COLOR);
  if (isTTY !== true) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}
