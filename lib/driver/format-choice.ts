import { describeValue } from '../parts/describe-value';
import { BODY_FORMATS, bodyFormatNamed, type BodyFormat } from '../providers/registry';
import { partstreamFormat } from '../providers/partstream/partstream-descriptor';
import type { AnyProviderDescriptor } from '../providers/provider-descriptor';

/**
 * What `format` takes: a format partstream knows by name, `auto` to recognise it from the first
 * frames, or a custom provider's descriptor (SPEC §15).
 */
export type FormatOption = BodyFormat | 'auto' | AnyProviderDescriptor;

/** The formats a body may be: one named, or (`expected` null) any of `candidates`, tried in order. */
export interface FormatChoice {
  readonly expected: AnyProviderDescriptor | null;
  readonly candidates: readonly AnyProviderDescriptor[];
}

const FRAMINGS: ReadonlySet<string> = new Set(['sse', 'ndjson', 'aws-eventstream']);

/** Throws a `TypeError` naming what is missing unless `value` is a usable descriptor. */
export function checkDescriptor(value: unknown, what: string): asserts value is AnyProviderDescriptor {
  if (typeof value !== 'object' || value === null) throw new TypeError(`Expected ${what} to be a ProviderDescriptor, got ${describeValue(value)}`);
  const descriptor = value as Partial<AnyProviderDescriptor>;
  const problem =
    typeof descriptor.format !== 'string' || descriptor.format === '' || descriptor.format === 'auto'
      ? 'a format name (a non-empty string other than auto)'
      : typeof descriptor.framing !== 'string' || !FRAMINGS.has(descriptor.framing)
        ? 'a framing (sse, ndjson or aws-eventstream)'
        : typeof descriptor.createMapper !== 'function'
          ? 'a createMapper function'
          : descriptor.framing === 'aws-eventstream' && typeof descriptor.createByteDecoder !== 'function'
            ? 'a createByteDecoder function (its framing is aws-eventstream)'
            : null;
  if (problem !== null) throw new TypeError(`Expected ${what} to be a ProviderDescriptor with ${problem}, got ${describeValue(value)}`);
}

/** The names `format` takes, for the `TypeError` of one it does not. */
function formatNames(): string {
  return [...BODY_FORMATS.map((descriptor) => descriptor.format), 'auto'].join(', ');
}

/**
 * The formats a body may be, from the `format` and `providers` options: a named format alone, or
 * for `auto` the custom providers first, then partstream's own (a `partstream` relay body only
 * when `relayHeader` says so, or by its first event). Throws a `TypeError` for an unknown name or a
 * descriptor that is not one.
 */
export function chooseFormat(format: unknown, providers: unknown, relayHeader = false): FormatChoice {
  let custom: readonly AnyProviderDescriptor[] = [];
  if (providers !== undefined) {
    if (!Array.isArray(providers)) throw new TypeError(`Expected providers to be an array of ProviderDescriptors, got ${describeValue(providers)}`);
    providers.forEach((descriptor: unknown, index) => checkDescriptor(descriptor, `providers[${index}]`));
    custom = providers as readonly AnyProviderDescriptor[];
  }
  if (format === undefined || format === 'auto') {
    if (relayHeader) return { expected: partstreamFormat, candidates: [partstreamFormat] };
    return { expected: null, candidates: custom.length === 0 ? BODY_FORMATS : [...custom, ...BODY_FORMATS] };
  }
  if (typeof format === 'string') {
    const named = bodyFormatNamed(format) ?? custom.find((descriptor) => descriptor.format === format) ?? null;
    if (named === null) throw new TypeError(`Expected format to be one of ${formatNames()} or a ProviderDescriptor, got ${describeValue(format)}`);
    return { expected: named, candidates: [named] };
  }
  checkDescriptor(format, 'format');
  return { expected: format, candidates: [format] };
}
