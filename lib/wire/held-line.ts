/**
 * The line a decoder holds while its end has not arrived: the fragments cut from the ends of
 * texts, joined once, when the line end comes. Nearly every held line is one fragment, kept as it
 * is; a line spread over three or more texts keeps its later fragments in a list made for it. No
 * array is made (and none kept between texts) for the common single fragment: a decoder's buffer
 * that is emptied and refilled at every text would be a new young object each time, held across
 * the wait for the next text.
 */
export class HeldLine {
  private first: string | null = null;
  private more: string[] | null = null;
  /** The characters held, all fragments together. */
  length = 0;

  /** True while no fragment is held. */
  get empty(): boolean {
    return this.first === null;
  }

  /** Holds `fragment` (not empty) after those held. */
  hold(fragment: string): void {
    if (this.first === null) this.first = fragment;
    else if (this.more === null) this.more = [fragment];
    else this.more.push(fragment);
    this.length += fragment.length;
  }

  /** The held fragments followed by `last`, as one flat string; nothing is held afterwards. */
  take(last: string): string {
    const first = this.first;
    const more = this.more;
    this.clear();
    if (first === null) return last;
    if (more === null) return last === '' ? first : [first, last].join('');
    more.unshift(first);
    more.push(last);
    return more.join('');
  }

  /** Lets go of the held fragments. */
  clear(): void {
    this.first = null;
    this.more = null;
    this.length = 0;
  }
}
