/**
 * A JSON text that can never become valid JSON (or, from `parseToolArguments`, one that is not
 * complete). `position` is the 0-based UTF-16 offset where it broke and `reason` what was wrong
 * there. The message names both; it quotes one character of the text (`parsePartialJson`) or at
 * most 60 around the break (`parseToolArguments`), escaped.
 */
export class JsonSyntaxError extends SyntaxError {
  readonly position: number;
  readonly reason: string;

  constructor(message: string, position: number, reason: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JsonSyntaxError';
    this.position = position;
    this.reason = reason;
  }

  /** True for a `JsonSyntaxError`, also one made by another copy of this module (ESM and CJS). */
  static isInstance(value: unknown): value is JsonSyntaxError {
    return value instanceof Error && value.name === 'JsonSyntaxError' && typeof (value as JsonSyntaxError).position === 'number';
  }
}
