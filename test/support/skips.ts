/**
 * Why tests were skipped (or checked another way) in a run, and what, kept to be printed as one
 * line when the run ends (test/support/skip-summary.ts) instead of a line from each suite.
 */
export class SkipNotes {
  readonly #noted = new Map<string, Set<string>>();

  /** Records that `what` (a suite or test) was skipped, or checked another way, because of `reason`. */
  note(reason: string, what: string): void {
    let whats = this.#noted.get(reason);
    if (whats === undefined) this.#noted.set(reason, (whats = new Set()));
    whats.add(what);
  }

  /**
   * The one line that says what was skipped and why: each reason with the suites and tests it
   * covered (the first three named). Null when nothing was noted.
   */
  summary(): string | null {
    if (this.#noted.size === 0) return null;
    const reasons = [...this.#noted].map(([reason, whats]) => {
      const names = [...whats];
      const shown = names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
      return `${reason} — ${shown}`;
    });
    return `Skipped because: ${reasons.join('; ')}.`;
  }
}

/** The run's notes, printed by test/support/skip-summary.ts. */
export const RUN_SKIPS = new SkipNotes();

/** Records, for the run's summary line, that `what` was skipped (or checked another way) because of `reason`. */
export function noteSkipped(reason: string, what: string): void {
  RUN_SKIPS.note(reason, what);
}
