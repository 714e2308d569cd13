/**
 * Appends strings in O(1) each and joins them once when read, so accumulating a million deltas
 * never copies the text gathered so far. Reading collapses the pieces into one, so repeated reads
 * do not join again.
 */
export class StringPieces {
  private readonly pieces: string[];

  constructor(first: string) {
    this.pieces = [first];
  }

  /** Adds `piece` at the end. */
  append(piece: string): void {
    if (piece !== '') this.pieces.push(piece);
  }

  /** The concatenation of everything appended. */
  read(): string {
    if (this.pieces.length > 1) {
      const joined = this.pieces.join('');
      this.pieces.length = 1;
      this.pieces[0] = joined;
    }
    return this.pieces[0];
  }
}
