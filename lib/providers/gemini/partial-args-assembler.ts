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

function newContainer(array: boolean): Container {
  // Keys come from the wire: a prototype-less object keeps `__proto__` an ordinary key.
  return array ? [] : (Object.create(null) as Record<string, unknown>);
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
 * order. When a path leaves document order (e.g. an array index going back), fragments stop;
 * `toJson()` stays exact either way.
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

  /** Applies one streamed value and returns the JSON text it adds ('' when none). */
  apply(arg: GeminiPartialArg): string {
    if (arg === null || typeof arg !== 'object' || typeof arg.jsonPath !== 'string') return '';
    const segments = parseJsonPath(arg.jsonPath);
    const value = scalarOf(arg);
    if (segments === null || segments.length === 0 || typeof segments[0] !== 'string' || value === undefined) return '';
    this.place(segments, value);
    return this.inOrder ? this.write(segments, value, arg.willContinue === true) : '';
  }

  /** Closes what is still open and returns that closing text ('' when nothing was written). */
  close(): string {
    let out = '';
    if (this.openString !== null) out += '"';
    this.openString = null;
    while (this.open.length > 0) out += this.open.pop()!.kind === 'object' ? '}' : ']';
    return this.inOrder ? out : '';
  }

  /** The arguments assembled so far, as JSON text (`{}` when none arrived). */
  toJson(): string {
    return JSON.stringify(this.root);
  }

  private place(segments: readonly JsonPathSegment[], value: Scalar): void {
    let node: Container = this.root;
    const last = segments.length - 1;
    for (let i = 0; i < last; i++) {
      const slots = node as Record<JsonPathSegment, unknown>;
      const wantsArray = typeof segments[i + 1] === 'number';
      let child = slots[segments[i]];
      if (child === null || typeof child !== 'object' || Array.isArray(child) !== wantsArray) {
        child = newContainer(wantsArray);
        slots[segments[i]] = child;
      }
      node = child as Container;
    }
    const slots = node as Record<JsonPathSegment, unknown>;
    const previous = slots[segments[last]];
    slots[segments[last]] = typeof value === 'string' && typeof previous === 'string' ? previous + value : value;
  }

  private write(segments: JsonPathSegment[], value: Scalar, continues: boolean): string {
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
    if (typeof segment !== 'number' || segment < top.members) return null;
    let out = top.members > 0 ? ',' : '';
    for (; top.members < segment; top.members++) out += 'null,';
    top.members++;
    return out;
  }
}
