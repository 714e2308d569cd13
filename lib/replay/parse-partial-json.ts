import { describeValue } from '../parts/describe-value';
import { JsonSyntaxError } from './json-syntax-error';

type Container = unknown[] | Record<string, unknown>;

const enum Expect {
  Value,
  ValueOrClose, // just after '['
  KeyOrClose, // just after '{'
  Key, // after ',' in an object
  Colon,
  CommaOrClose,
  End, // after the root value
}

const WHAT: Record<Expect, string> = {
  [Expect.Value]: 'a value',
  [Expect.ValueOrClose]: "a value or ']'",
  [Expect.KeyOrClose]: "a string key or '}'",
  [Expect.Key]: 'a string key',
  [Expect.Colon]: "':'",
  [Expect.CommaOrClose]: "',' or a closing bracket",
  [Expect.End]: 'the end of the text',
};

const ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };
const LITERALS: Record<number, readonly [string, unknown]> = { 0x74: ['true', true], 0x66: ['false', false], 0x6e: ['null', null] };

// One reused descriptor: a data property made like JSON.parse makes it (CreateDataProperty).
const descriptor: PropertyDescriptor = { value: undefined, writable: true, enumerable: true, configurable: true };

// Assignment is the fast path. A key Object.prototype knows (`__proto__`, `toString`, or whatever a
// polluted or frozen prototype holds) is defined instead: no prototype setter runs, and a frozen
// prototype's read-only key does not block an own key of that name.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (!(key in Object.prototype)) {
    target[key] = value;
    return;
  }
  descriptor.value = value;
  Object.defineProperty(target, key, descriptor);
  descriptor.value = undefined;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

/**
 * The value a partial JSON text (tool-call arguments streamed so far) already determines; on a
 * complete JSON text, exactly `JSON.parse`'s value (a `__proto__` key included, as an own key).
 *
 * - `undefined` while nothing is determined (`''`, whitespace, `-`, `t`, `nu`); `"` is already `''`.
 * - An object key appears only once its value has started (and for a number or literal, only once
 *   that value is complete); a key still streaming is left out.
 * - A string is cut where the text stops; a cut escape (`\`, `\u00`) and a high surrogate still
 *   waiting for its low half are dropped.
 * - A number is a value once a delimiter follows it (`[1` is `[]`, `[1,` is `[1]`): a trailing `1`
 *   could still become `12`. The one exception is a text that is a bare number and nothing else:
 *   it is a complete JSON text, so it gives `JSON.parse`'s value (`'12'` is `12`). `-`, `1.`, `1e`
 *   are never values. `true`, `false` and `null` count once complete.
 * - Arrays and objects hold what is determined so far.
 *
 * Text that can never become valid JSON (`{]`, `[1,,`, trailing garbage after a complete value as
 * in `JSON.parse`) throws a `JsonSyntaxError` naming the position; nothing partial is returned
 * then. Time and memory are linear in the text; nesting of any depth works (no recursion). Each
 * call reads the whole text: called on every delta of a long argument string, the total grows with
 * the square of its length, so a view may call it once per frame it draws rather than per delta.
 */
export function parsePartialJson(text: string): unknown {
  if (typeof text !== 'string') throw new TypeError(`Expected text to be a string, got ${describeValue(text)}`);
  const n = text.length;
  const stack: Container[] = [];
  let top: Container | undefined;
  let topIsArray = false;
  let key = '';
  let root: unknown;
  let expect = Expect.Value;
  let pos = 0;
  let cut = false; // set by readString/readNumber/readLiteral when the text ends inside the token

  function fail(at: number, what: string): never {
    const reason = `expected ${what}, got ${at < n ? JSON.stringify(text[at]) : 'the end of the text'}`;
    throw new JsonSyntaxError(`Invalid JSON at position ${at}: ${reason}`, at, reason);
  }

  // Puts a determined value in the current slot: the root, the array, or the object under `key`.
  const place = (value: unknown): void => {
    if (top === undefined) root = value;
    else if (topIsArray) (top as unknown[]).push(value);
    else setOwn(top as Record<string, unknown>, key, value);
  };

  // open and close return what comes next, so the flow of `expect` stays visible in the loop.
  const open = (container: Container, isArray: boolean): Expect => {
    // Placed at once, so a container the text stops in is already part of the result.
    place(container);
    stack.push(container);
    top = container;
    topIsArray = isArray;
    pos++;
    return isArray ? Expect.ValueOrClose : Expect.KeyOrClose;
  };

  const close = (): Expect => {
    stack.pop();
    top = stack.length === 0 ? undefined : stack[stack.length - 1];
    topIsArray = Array.isArray(top);
    pos++;
    return top === undefined ? Expect.End : Expect.CommaOrClose;
  };

  // Reads the string whose opening quote is at `pos`. Plain runs are sliced, never appended
  // character by character; pieces are joined once.
  const readString = (): string => {
    let i = pos + 1;
    let runStart = i;
    let pieces: string[] | undefined;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        pos = i + 1;
        if (pieces === undefined) return text.slice(runStart, i);
        pieces.push(text.slice(runStart, i));
        return pieces.join('');
      }
      if (c === 0x5c) {
        pieces ??= [];
        if (i > runStart) pieces.push(text.slice(runStart, i));
        if (i + 1 >= n) break; // a cut `\` is dropped
        const e = text.charCodeAt(i + 1);
        if (e === 0x75) {
          let j = i + 2;
          while (j < n && j < i + 6 && isHex(text.charCodeAt(j))) j++;
          if (j < i + 6) {
            if (j < n) fail(j, 'a hex digit');
            break; // a cut `\u00` is dropped
          }
          pieces.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)));
          i += 6;
        } else {
          const escaped = ESCAPES[e];
          if (escaped === undefined) fail(i + 1, 'an escape character');
          pieces.push(escaped);
          i += 2;
        }
        runStart = i;
        continue;
      }
      if (c < 0x20) fail(i, 'a string character (control characters must be escaped)');
      i++;
    }
    // The text ended inside the string.
    cut = true;
    pos = n;
    const tail = i >= n ? text.slice(runStart, n) : ''; // i < n: stopped at a cut escape
    const value = pieces === undefined ? tail : (pieces.push(tail), pieces.join(''));
    // A high surrogate at the cut is half a character whose other half has not arrived yet.
    return value.length > 0 && isHighSurrogate(value.charCodeAt(value.length - 1)) ? value.slice(0, -1) : value;
  };

  const skipDigits = (i: number): number => {
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    return i;
  };

  // Reads the number at `pos`; `cut` when the text ends inside or right after it.
  const readNumber = (): number => {
    const start = pos;
    let i = start;
    if (text.charCodeAt(i) === 0x2d) i++;
    let complete = false;
    if (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x30) i++;
      else if (isDigit(c)) i = skipDigits(i + 1);
      else fail(i, 'a digit');
      complete = true;
      if (i < n && text.charCodeAt(i) === 0x2e) {
        complete = false;
        if (++i < n) {
          if (!isDigit(text.charCodeAt(i))) fail(i, 'a digit');
          i = skipDigits(i);
          complete = true;
        }
      }
      const e = i < n ? text.charCodeAt(i) : 0;
      if (complete && (e === 0x65 || e === 0x45)) {
        complete = false;
        if (++i < n && (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d)) i++;
        if (i < n) {
          if (!isDigit(text.charCodeAt(i))) fail(i, 'a digit');
          i = skipDigits(i);
          complete = true;
        }
      }
    }
    pos = i;
    if (i < n) return Number(text.slice(start, i));
    cut = true;
    // Only a bare root number may end the text: it is then a complete JSON text.
    return complete && top === undefined ? Number(text.slice(start, i)) : NaN;
  };

  const readLiteral = (word: string): void => {
    for (let k = 1; k < word.length; k++) {
      const i = pos + k;
      if (i >= n) {
        cut = true;
        return;
      }
      if (text.charCodeAt(i) !== word.charCodeAt(k)) fail(i, `'${word}'`);
    }
    pos += word.length;
  };

  for (;;) {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      pos++;
    }
    if (pos >= n) break;
    const c = text.charCodeAt(pos);
    switch (expect) {
      case Expect.ValueOrClose:
      case Expect.Value: {
        if (c === 0x5d && expect === Expect.ValueOrClose) {
          expect = close();
          continue;
        }
        if (c === 0x7b) {
          expect = open({}, false);
          continue;
        }
        if (c === 0x5b) {
          expect = open([], true);
          continue;
        }
        if (c === 0x22) {
          const value = readString();
          place(value); // a cut string counts as far as it goes
        } else if (c === 0x2d || isDigit(c)) {
          const value = readNumber();
          if (!Number.isNaN(value)) place(value);
        } else if (LITERALS[c] !== undefined) {
          const [word, value] = LITERALS[c];
          readLiteral(word);
          if (!cut) place(value);
        } else {
          fail(pos, WHAT[expect]);
        }
        if (cut) return root;
        expect = top === undefined ? Expect.End : Expect.CommaOrClose;
        continue;
      }
      case Expect.KeyOrClose:
      case Expect.Key:
        if (c === 0x7d && expect === Expect.KeyOrClose) {
          expect = close();
          continue;
        }
        if (c !== 0x22) fail(pos, WHAT[expect]);
        key = readString();
        if (cut) return root; // a key still streaming is left out
        expect = Expect.Colon;
        continue;
      case Expect.Colon:
        if (c !== 0x3a) fail(pos, WHAT[expect]);
        pos++;
        expect = Expect.Value;
        continue;
      case Expect.CommaOrClose:
        if (c === 0x2c) {
          expect = topIsArray ? Expect.Value : Expect.Key;
          pos++;
        } else if (c === (topIsArray ? 0x5d : 0x7d)) {
          expect = close();
        } else {
          fail(pos, topIsArray ? "',' or ']'" : "',' or '}'");
        }
        continue;
      case Expect.End:
        fail(pos, WHAT[expect]);
    }
  }
  return root;
}
