import { stringifyJson } from '../../wire/stringify-json';
import { parseJsonPath, type JsonPathSegment } from './gemini-json-path';
import type { GeminiPartialArg } from './gemini-wire';

type Container = Record<string, unknown> | unknown[];
type Scalar = string | number | boolean | null;

/** A container of the JSON text written so far that is not closed yet. */
interface OpenContainer {
  /** The step that leads to it from its parent (null for the root object). */
  readonly segment: JsonPathSegment | null;
  readonly kind: 'object' | 'array';
  /** Members written so far (for arrays: the next index). */
  members: number;
}

/** What `place` answers for a value it refused. */
const NOT_PLACED = -1;

function newContainer(array: boolean): Container {
  // Ordinary objects, like the ones JSON.parse makes for seeded arguments: members are read and
  // written only through hasMember / setMember, so their prototype is never reached. (A chain of
  // prototype-less objects would be dictionary-mode, and far slower to build deep.)
  return array ? [] : {};
}

/** True when `node` has `segment` as an own member (never a prototype's: `__proto__`, `constructor` …). */
function hasMember(node: Container, segment: JsonPathSegment): boolean {
  return Object.prototype.hasOwnProperty.call(node, segment);
}

/** Writes an own member: assigning `__proto__` to an ordinary object would replace its prototype instead. */
function setMember(node: Container, segment: JsonPathSegment, value: unknown): void {
  if (segment === '__proto__') Object.defineProperty(node, segment, { value, writable: true, enumerable: true, configurable: true });
  else (node as Record<JsonPathSegment, unknown>)[segment] = value;
}

/** True when `node` can take a member at `segment`: a key of an object, an index of an array up to its length. */
function admits(node: Container, segment: JsonPathSegment): boolean {
  return Array.isArray(node) ? typeof segment === 'number' && segment <= node.length : typeof segment === 'string';
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function escapeJson(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function scalarOf(arg: GeminiPartialArg): Scalar | undefined {
  if (typeof arg.stringValue === 'string') return arg.stringValue;
  if (typeof arg.numberValue === 'number') return arg.numberValue;
  if (typeof arg.boolValue === 'boolean') return arg.boolValue;
  if (arg.nullValue !== undefined) return null;
  return undefined;
}

function samePath(a: readonly JsonPathSegment[], b: readonly JsonPathSegment[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Assembles the arguments of one Gemini function call streamed as `partialArgs` (Vertex
 * `streamFunctionCallArguments`): each value is placed at its JSON path, string values append
 * per path, objects keep their keys in arrival order.
 *
 * Alongside, it writes the same arguments as JSON text, fragment by fragment, so that the
 * fragments (`apply` … `close`) concatenate to the final JSON while values arrive in document
 * order. When a path leaves document order (a member written before is written again, e.g. a key
 * of an object already closed), fragments stop; `toJson()` stays exact either way.
 *
 * Paths come from the server and are held to what JSON text can say in the bytes sent:
 * - every key is an own member — `__proto__`, `constructor` and `prototype` are ordinary keys,
 *   as `JSON.parse` makes them, and no prototype is ever read or written;
 * - an array grows one element at a time: an index may be at most the array's current length
 *   (the next element); a path that skips ahead (`$.a[100000000]`) is refused, so nothing is
 *   allocated in proportion to a number the server names;
 * - a value goes only where the path leads through containers of the right kind (or new ones),
 *   and only onto a free member or onto a string it continues.
 * A refused value changes nothing and `apply` answers null, so the caller surfaces it raw.
 * Time and memory stay linear in the length of the paths and values received; nested arguments of
 * any depth are written without recursion.
 */
export class PartialArgsAssembler {
  private root: Record<string, unknown> = newContainer(false) as Record<string, unknown>;
  private readonly open: OpenContainer[] = [];
  /** The path of the string value whose closing quote is not written yet. */
  private openString: JsonPathSegment[] | null = null;
  private inOrder = true;

  /** Starts from arguments the call sent whole (`args`); no fragments follow for them. */
  seed(args: Record<string, unknown>): void {
    this.root = args;
    this.inOrder = false;
  }

  /**
   * Applies one streamed value and returns the JSON text it adds ('' when none); null when the
   * value was refused (no readable path or value, or a path the rules above refuse).
   */
  apply(streamed: unknown): string | null {
    if (streamed === null || typeof streamed !== 'object') return null;
    const arg = streamed as GeminiPartialArg;
    if (typeof arg.jsonPath !== 'string') return null;
    const segments = parseJsonPath(arg.jsonPath);
    const value = scalarOf(arg);
    // The arguments are an object: a path starts with a key.
    if (segments === null || segments.length === 0 || typeof segments[0] !== 'string' || value === undefined) return null;
    const firstNew = this.place(segments, value);
    if (firstNew === NOT_PLACED) return null;
    return this.inOrder ? this.write(segments, firstNew, value, arg.willContinue === true) : '';
  }

  /** Closes what is still open and returns that closing text ('' when nothing was written). */
  close(): string {
    let out = '';
    if (this.openString !== null) out += '"';
    this.openString = null;
    while (this.open.length > 0) out += this.open.pop()!.kind === 'object' ? '}' : ']';
    return this.inOrder ? out : '';
  }

  /** The arguments assembled so far, as JSON text (`{}` when none arrived), at any nesting depth. */
  toJson(): string {
    return stringifyJson(this.root) ?? '{}';
  }

  /**
   * Places one value; returns the step of its path where new members start (the path's length
   * when the value continues a string already there), or NOT_PLACED without changing anything.
   */
  private place(segments: readonly JsonPathSegment[], value: Scalar): number {
    const last = segments.length - 1;
    // First the steps through members that exist, checking the whole path before changing anything.
    let node: Container = this.root;
    let step = 0;
    for (; step < last && hasMember(node, segments[step]); step++) {
      const child: unknown = (node as Record<JsonPathSegment, unknown>)[segments[step]];
      if (!isContainer(child) || Array.isArray(child) !== (typeof segments[step + 1] === 'number')) return NOT_PLACED;
      node = child;
    }
    if (!admits(node, segments[step])) return NOT_PLACED;
    if (step === last && hasMember(node, segments[last])) {
      const previous = (node as Record<JsonPathSegment, unknown>)[segments[last]];
      if (typeof previous !== 'string' || typeof value !== 'string') return NOT_PLACED;
      setMember(node, segments[last], previous + value);
      return segments.length;
    }
    // Below `step` every container is new, so its only admissible index is 0.
    for (let i = step + 1; i <= last; i++) if (typeof segments[i] === 'number' && segments[i] !== 0) return NOT_PLACED;
    for (let i = step; i < last; i++) {
      const child = newContainer(typeof segments[i + 1] === 'number');
      setMember(node, segments[i], child);
      node = child;
    }
    setMember(node, segments[last], value);
    return step;
  }

  /** The JSON text for a value just placed, whose new members start at step `firstNew` of its path. */
  private write(segments: JsonPathSegment[], firstNew: number, value: Scalar, continues: boolean): string {
    let out = '';
    if (this.openString !== null) {
      if (typeof value === 'string' && samePath(this.openString, segments)) {
        out = escapeJson(value);
        if (!continues) {
          out += '"';
          this.openString = null;
        }
        return out;
      }
      out = '"';
      this.openString = null;
    }
    if (this.open.length === 0) {
      out += '{';
      this.open.push({ segment: null, kind: 'object', members: 0 });
    }
    const depth = segments.length - 1;
    let common = 0;
    while (common < depth && common + 1 < this.open.length && this.open[common + 1].segment === segments[common]) common++;
    // The members written below are new in the text; they must be new in the arguments too.
    if (firstNew !== common) {
      this.inOrder = false;
      return out;
    }
    while (this.open.length > common + 1) out += this.open.pop()!.kind === 'object' ? '}' : ']';
    for (let i = common; i <= depth; i++) {
      const member = this.member(segments[i]);
      if (member === null) {
        this.inOrder = false;
        return out;
      }
      out += member;
      if (i < depth) {
        const kind = typeof segments[i + 1] === 'number' ? 'array' : 'object';
        out += kind === 'object' ? '{' : '[';
        this.open.push({ segment: segments[i], kind, members: 0 });
      }
    }
    if (typeof value === 'string') {
      out += `"${escapeJson(value)}`;
      if (continues) this.openString = segments;
      else out += '"';
    } else {
      out += typeof value === 'number' && !Number.isFinite(value) ? 'null' : JSON.stringify(value);
    }
    return out;
  }

  /** The text that starts a member at `segment` of the innermost open container; null when out of order. */
  private member(segment: JsonPathSegment): string | null {
    const top = this.open[this.open.length - 1];
    if (top.kind === 'object') {
      if (typeof segment !== 'string') return null;
      return `${top.members++ > 0 ? ',' : ''}${JSON.stringify(segment)}:`;
    }
    // Arrays are written one element after the other; `place` refuses an index that skips ahead.
    if (segment !== top.members) return null;
    return top.members++ > 0 ? ',' : '';
  }
}
