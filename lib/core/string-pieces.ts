/**
 * How many appended pieces are joined into one block. Small, because the pieces of the block being
 * filled are each a string of their own (a delta's 16-byte header and its few characters, held
 * until the block is joined): with thousands of streams open, what a stream holds between its
 * reads is most of the heap, and a block holds the same characters without the headers.
 */
const BLOCK_SIZE = 32;

/**
 * Appends strings in O(1) each and joins them once when read, so accumulating a million deltas
 * never copies the text gathered so far. Every `BLOCK_SIZE` pieces are joined into one block, so
 * a long stream holds one string per block rather than one per delta (each character is copied
 * at most twice: into its block, then into the result). Reading collapses everything into one
 * string and lets go of the block lists, so repeated reads do not join again.
 *
 * The pieces of the block being filled go into one list, made at the second piece and reused from
 * block to block (emptied by overwriting, never by `length = 0`, which would make V8 let go of its
 * backing store and grow a new one for every block).
 */
export class StringPieces {
  /** Everything before the blocks: the first piece, or what the last read joined. */
  private head: string;
  /** The blocks joined since then, in order; made at the first one. */
  private blocks: string[] | null = null;
  /** The pieces of the block being filled are its first `count` entries; the others are ''. */
  private pieces: string[] | null = null;
  private count = 0;

  constructor(first: string) {
    this.head = first;
  }

  /** Adds `piece` at the end. */
  append(piece: string): void {
    if (piece === '') return;
    let pieces = this.pieces;
    if (pieces === null) {
      if (this.head === '' && this.blocks === null) {
        this.head = piece;
        return;
      }
      pieces = [];
      this.pieces = pieces;
    }
    const count = this.count;
    if (count < pieces.length) pieces[count] = piece;
    else pieces.push(piece);
    if (count + 1 < BLOCK_SIZE) {
      this.count = count + 1;
      return;
    }
    const block = pieces.join('');
    if (this.blocks === null) this.blocks = [block];
    else this.blocks.push(block);
    // The joined pieces are let go of now, not when later pieces overwrite them.
    pieces.fill('');
    this.count = 0;
  }

  /** The concatenation of everything appended. */
  read(): string {
    const blocks = this.blocks;
    const pieces = this.pieces;
    const count = this.count;
    if (blocks === null && count === 0) {
      this.pieces = null;
      return this.head;
    }
    const all: string[] = this.head === '' ? [] : [this.head];
    if (blocks !== null) for (const block of blocks) all.push(block);
    for (let i = 0; i < count; i++) all.push((pieces as string[])[i] as string);
    const text = all.length === 1 ? (all[0] as string) : all.join('');
    this.head = text;
    this.blocks = null;
    this.pieces = null;
    this.count = 0;
    return text;
  }
}
