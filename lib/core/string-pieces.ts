/** How many appended pieces are joined into one block (bounds the number of live strings). */
const BLOCK_SIZE = 128;

/**
 * Appends strings in O(1) each and joins them once when read, so accumulating a million deltas
 * never copies the text gathered so far. Every `BLOCK_SIZE` pieces are joined into one block, so
 * a long stream holds one string per block rather than one per delta (each character is copied
 * at most twice: into its block, then into the result). Reading collapses everything into one
 * string, so repeated reads do not join again.
 */
export class StringPieces {
  private readonly blocks: string[] = [];
  private readonly pieces: string[];

  constructor(first: string) {
    this.pieces = first === '' ? [] : [first];
  }

  /** Adds `piece` at the end. */
  append(piece: string): void {
    if (piece === '') return;
    const pieces = this.pieces;
    pieces.push(piece);
    if (pieces.length === BLOCK_SIZE) {
      this.blocks.push(pieces.join(''));
      pieces.length = 0;
    }
  }

  /** The concatenation of everything appended. */
  read(): string {
    const blocks = this.blocks;
    const pieces = this.pieces;
    if (pieces.length > 0) {
      blocks.push(pieces.length === 1 ? (pieces[0] as string) : pieces.join(''));
      pieces.length = 0;
    }
    if (blocks.length === 0) return '';
    if (blocks.length > 1) {
      const joined = blocks.join('');
      blocks.length = 1;
      blocks[0] = joined;
    }
    return blocks[0] as string;
  }
}
