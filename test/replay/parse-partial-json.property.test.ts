import { expect } from 'chai';
import fc from 'fast-check';
import { JsonSyntaxError } from '../../lib/replay/json-syntax-error';
import { parsePartialJson } from '../../lib/replay/parse-partial-json';

const SEED = 20261201;

/** A number written as given (`1E5`, `-0.50e-03`), which JSON.stringify would never write. */
class NumberLiteral {
  constructor(readonly literal: string) {}
}
type Tree = null | boolean | number | string | NumberLiteral | Tree[] | { [key: string]: Tree };

interface Style {
  /** Whitespace pieces put between tokens in turn. */
  readonly spaces: readonly string[];
  /** Write strings with every non-ASCII character and `/` escaped. */
  readonly escapeStrings: boolean;
}

const hex4 = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Writes `tree` as JSON text in `style`; the expected value is always JSON.parse of the text. */
function serialize(tree: Tree, style: Style): string {
  let turn = 0;
  const space = (): string => (style.spaces.length === 0 ? '' : style.spaces[turn++ % style.spaces.length]);
  const str = (s: string): string => {
    const json = JSON.stringify(s);
    return style.escapeStrings ? json.replace(/[\u007f-\uffff/]/g, (c) => (c === '/' ? '\\/' : hex4(c))) : json;
  };
  const write = (t: Tree): string => {
    if (t instanceof NumberLiteral) return t.literal;
    if (typeof t === 'string') return str(t);
    if (Array.isArray(t)) return `[${space()}${t.map((item) => `${write(item)}${space()}`).join(`,${space()}`)}]`;
    if (t !== null && typeof t === 'object') {
      const members = Object.keys(t).map((key) => `${str(key)}${space()}:${space()}${write(t[key])}${space()}`);
      return `{${space()}${members.join(`,${space()}`)}}`;
    }
    return JSON.stringify(t);
  };
  return `${space()}${write(tree)}${space()}`;
}

/** Exact equality as JSON.parse builds values: same own keys in the same order, Object.prototype. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const keys = Reflect.ownKeys(a);
  const otherKeys = Reflect.ownKeys(b);
  return keys.length === otherKeys.length && keys.every((key, i) => key === otherKeys[i] && sameJson(Object.getOwnPropertyDescriptor(a, key)?.value, Object.getOwnPropertyDescriptor(b, key)?.value));
}

const own = (o: object, key: string): unknown => Object.getOwnPropertyDescriptor(o, key)?.value;

/**
 * Throws when `partial` is not a prefix-compatible sub-value of `final`; returns whether it is
 * complete (equal to it). Strings are prefixes; numbers, booleans and null equal; an array is no
 * longer than the final one, all its items but the last complete, the last compatible; an object
 * is plain and has a subset of the final keys (never another key), all values complete but at
 * most one, which is compatible. One pass over `partial`.
 */
function checkCompatible(partial: unknown, final: unknown, path = '$'): boolean {
  const show = (v: unknown): string => JSON.stringify(v)?.slice(0, 80) ?? String(v);
  const fail = (why: string): never => {
    throw new Error(`${path}: ${why}`);
  };
  if (partial === undefined) fail('undefined inside a value');
  if (typeof final === 'string') {
    if (typeof partial !== 'string' || !final.startsWith(partial)) fail(`${show(partial)} is not a start of ${show(final)}`);
    return partial === final;
  }
  if (final === null || typeof final !== 'object') {
    if (!Object.is(partial, final)) fail(`${show(partial)} is not ${show(final)}`);
    return true;
  }
  if (Array.isArray(final)) {
    if (!Array.isArray(partial) || partial.length > final.length) return fail(`${show(partial)} is not a start of ${show(final)}`);
    let complete = partial.length === final.length;
    partial.forEach((item, i) => {
      if (checkCompatible(item, final[i], `${path}[${i}]`)) return;
      if (i < partial.length - 1) fail(`item ${i} is not complete, yet is not the last`);
      complete = false;
    });
    return complete;
  }
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) return fail(`${show(partial)} is not an object`);
  if (Object.getPrototypeOf(partial) !== Object.prototype) fail('not a plain object');
  const keys = Reflect.ownKeys(partial);
  let incomplete = 0;
  for (const key of keys) {
    if (typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(final, key)) fail(`key ${String(key)} is not in the final value`);
    if (!checkCompatible(own(partial, key as string), own(final, key as string), `${path}.${String(key)}`) && ++incomplete > 1) {
      fail('more than one member is incomplete');
    }
  }
  return incomplete === 0 && keys.length === Reflect.ownKeys(final).length;
}

// A bare root number is the one value a text may determine at its end (it is a complete JSON
// text); its expected value comes from the JSON number grammar, not from the code under test.
const BARE_NUMBER = /^[ \t\n\r]*-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?[ \t\n\r]*$/;

/** Checks every prefix of `text`: consistent with the final value, and never losing content. */
function checkPrefixes(text: string): void {
  const final = JSON.parse(text);
  let previous: unknown;
  for (let end = 0; end <= text.length; end++) {
    const prefix = text.slice(0, end);
    const value = parsePartialJson(prefix);
    if (typeof final === 'number') {
      const expected = BARE_NUMBER.test(prefix) ? Number(prefix) : undefined;
      if (!Object.is(value, expected)) throw new Error(`${JSON.stringify(prefix)}: got ${String(value)}, expected ${String(expected)}`);
      continue;
    }
    try {
      if (value !== undefined) checkCompatible(value, final);
    } catch (error) {
      throw new Error(`prefix ${JSON.stringify(prefix)} against the final value: ${(error as Error).message}`, { cause: error });
    }
    if (previous !== undefined) {
      try {
        if (value === undefined) throw new Error('$ became undefined');
        checkCompatible(previous, value);
      } catch (error) {
        throw new Error(`prefix ${JSON.stringify(prefix)} lost determined content: ${(error as Error).message}`, { cause: error });
      }
    }
    previous = value;
  }
}

const stringArb = fc.string({
  maxLength: 8,
  unit: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('a', 'Z', ' ', '"', '\\', '/', '\n', '\u0001', '\u007f', 'é', '\u2028') },
    { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom('\uD83D', '\uDE00') },
  ),
});
const keyArb = fc.oneof({ weight: 4, arbitrary: stringArb }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '') });
const leafArb: fc.Arbitrary<Tree> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.stringMatching(/^-?(0|[1-9][0-9]{0,4})(\.[0-9]{1,3})?([eE][+-]?[0-9]{1,3})?$/).map((literal) => new NumberLiteral(literal)),
  stringArb,
);
const treeArb: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, leafArb, fc.array(tie('tree'), { maxLength: 5 }), fc.dictionary(keyArb, tie('tree'), { maxKeys: 5, noNullPrototype: true })),
})).tree;

/** A chain of up to 100 arrays and objects, with siblings before or after, around a small value. */
const deepArb: fc.Arbitrary<Tree> = fc
  .tuple(
    fc.array(fc.record({ isArray: fc.boolean(), key: keyArb, sibling: fc.option(leafArb, { freq: 3 }), siblingFirst: fc.boolean() }), { minLength: 20, maxLength: 100 }),
    fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Tree>,
  )
  .map(([wrappers, leaf]) =>
    wrappers.reduce<Tree>((inner, { isArray, key, sibling, siblingFirst }) => {
      if (isArray) return sibling === null ? [inner] : siblingFirst ? [sibling, inner] : [inner, sibling];
      const wrapped: { [key: string]: Tree } = {};
      const put = (k: string, v: Tree) => Object.defineProperty(wrapped, k, { value: v, enumerable: true, writable: true, configurable: true });
      if (sibling !== null && siblingFirst) put(`${key}~`, sibling);
      put(key, inner);
      if (sibling !== null && !siblingFirst) put(`${key}~`, sibling);
      return wrapped;
    }, leaf),
  );

const styleArb: fc.Arbitrary<Style> = fc.record({
  spaces: fc.oneof(fc.constant([]), fc.array(fc.stringMatching(/^[ \t\n\r]{0,3}$/), { minLength: 1, maxLength: 6 })),
  escapeStrings: fc.boolean(),
});

describe('parsePartialJson (properties, seed 20261201)', () => {
  it('(a) gives exactly JSON.parse on a complete text, whitespace and escapes included', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue() as fc.Arbitrary<Tree>, treeArb, deepArb), styleArb, (tree, style) => {
        const text = serialize(tree, style);
        const value = parsePartialJson(text);
        expect(sameJson(value, JSON.parse(text)), text.slice(0, 200)).to.equal(true);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('(b, c) on every prefix: a start of the final value, never a key it lacks, never losing content', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue() as fc.Arbitrary<Tree>, treeArb), styleArb, (tree, style) => checkPrefixes(serialize(tree, style))),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('(b, c) on every prefix of deeply nested texts', () => {
    fc.assert(
      fc.property(deepArb, styleArb, (tree, style) => checkPrefixes(serialize(tree, style))),
      { seed: SEED, numRuns: 40 },
    );
  });

  it('agrees with JSON.parse on token soup: equal values, and an error only where JSON.parse breaks before the end', () => {
    const tokens = ['{', '}', '[', ']', ',', ':', '"a"', '"b', '"', '1', '-', '0', '.', 'e', 'true', 'nul', ' ', '\\', 'x', '\\u00'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        let expected: unknown;
        let v8Error: Error | undefined;
        try {
          expected = JSON.parse(text);
        } catch (error) {
          v8Error = error as Error;
        }
        // V8 names the end of the text when it only ran out of text.
        const ranOut = v8Error !== undefined && (/end of JSON input/.test(v8Error.message) || v8Error.message.endsWith(`at position ${text.length}`));
        let value: unknown;
        try {
          value = parsePartialJson(text);
        } catch (error) {
          expect(JsonSyntaxError.isInstance(error), String(error)).to.equal(true);
          const { position } = error as JsonSyntaxError;
          expect(v8Error !== undefined && !ranOut, `${JSON.stringify(text)}: JSON.parse says ${v8Error?.message}`).to.equal(true);
          expect(position).to.be.within(0, text.length - 1);
          expect(() => parsePartialJson(text.slice(0, position)), 'the error is at the first bad character').not.to.throw();
          return;
        }
        if (v8Error === undefined) expect(sameJson(value, expected), JSON.stringify(text)).to.equal(true);
        else expect(ranOut, `${JSON.stringify(text)} accepted, but JSON.parse says ${v8Error.message}`).to.equal(true);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});
