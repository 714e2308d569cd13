import { PROVIDERS, type WireFormat } from '../providers/registry';

/** What `--format` accepts: a wire format, or `auto` to recognise it from the first bytes. */
export type ReplayFormat = WireFormat | 'auto';

/** The accepted `--format` values, in the order the usage text lists them. */
export const REPLAY_FORMATS: readonly ReplayFormat[] = Object.freeze(['auto', ...PROVIDERS.map((descriptor) => descriptor.format)]);

/**
 * What `--raw` accepts, for the human view: `none` hides raw events (the summary counts them),
 * `short` shows each as one line cut to the width (the default), `full` shows each whole.
 */
export type RawView = 'none' | 'short' | 'full';

/** The accepted `--raw` values, in the order the usage text lists them. */
export const RAW_VIEWS: readonly RawView[] = Object.freeze(['none', 'short', 'full']);

/** Every option the command line knows, as the unknown-option message lists them (the usage text's Options). */
export const CLI_OPTIONS: readonly string[] = Object.freeze(['--format', '--json', '--raw', '--pace', '-v', '--version', '-h', '--help']);

/** A parsed command line: what to run, or why the arguments were refused. */
export type CliCommand =
  | { readonly type: 'help' }
  | { readonly type: 'version' }
  | {
      readonly type: 'replay';
      /** A file path, `'-'` for standard input, or null for the embedded recording. */
      readonly file: string | null;
      readonly format: ReplayFormat;
      readonly json: boolean;
      /** How the human view shows raw events; absent means `short`. Never set with `json`. */
      readonly raw?: RawView | undefined;
      /** `--pace MS`: milliseconds to wait before each content callback; absent: the default for the output. */
      readonly pace?: number | undefined;
    }
  | { readonly type: 'usage-error'; readonly message: string };

/**
 * The default `--pace` when standard output is a terminal and `--json` is off, in milliseconds: about
 * the rate at which a model streams phrase-sized deltas (the embedded recording takes under a second).
 */
export const DEFAULT_TTY_PACE_MS = 40;
/**
 * The most the default terminal pace adds to a whole replay, in milliseconds: a long recording
 * speeds up rather than taking 40 ms a delta (a 300-delta capture would take 12 s). An explicit
 * `--pace` is kept as given.
 */
export const TTY_PACE_BUDGET_MS = 2_000;
/** The largest `--pace` accepted, in milliseconds: a larger one would look like a hang. */
export const MAX_PACE_MS = 10_000;

/** The usage text printed by `--help` and after a usage error. */
export const USAGE = [
  'Usage: partstream replay [FILE|-] [--format FORMAT] [--json | --raw RAW] [--pace MS]',
  '       partstream --version | --help',
  '',
  'Replays a recorded provider stream (an HTTP response body) through partstream and shows the',
  'callbacks as they fire, then the final message. With no FILE it replays an embedded Anthropic',
  'recording; with "-" it reads standard input.',
  '',
  'Options:',
  `  --format FORMAT  ${REPLAY_FORMATS.join(' | ')} (default: auto);`,
  '                   when the stream fails, the error says which format the bytes look like',
  '  --json           print one JSON object per callback, one per line (every raw event included)',
  `  --raw RAW        ${RAW_VIEWS.join(' | ')} (default: short): how the human view shows raw events:`,
  '                   hidden (counted in the summary), one line each cut to the width, or each whole',
  `  --pace MS        wait MS milliseconds before each streamed delta (0 to ${MAX_PACE_MS}; default:`,
  `                   ${DEFAULT_TTY_PACE_MS} on a terminal, adding ${TTY_PACE_BUDGET_MS / 1000} s at most in all; 0 when piped or with --json)`,
  '  -v, --version    print the version',
  '  -h, --help       show this help',
  '',
  'Colour: on a terminal, unless NO_COLOR is set (non-empty) or TERM=dumb. FORCE_COLOR=1, 2, 3, true',
  'or empty forces it on (even when piped, over NO_COLOR); any other FORCE_COLOR value turns it off.',
  '',
  'Exit status: 0 after a complete response, 1 after a stream error, 2 for bad usage, 130 when interrupted.',
].join('\n');

/** Parses the arguments that follow the program name (`process.argv.slice(2)`). */
export function parseArgs(argv: readonly string[]): CliCommand {
  // After "--" everything is a file name, even "-h" or "-v".
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  if (options.some((arg) => arg === '-h' || arg === '--help') || argv[0] === 'help') return { type: 'help' };
  if (options.some((arg) => arg === '-v' || arg === '--version')) return { type: 'version' };
  if (argv.length === 0) return usageError('missing command: expected "replay"');
  const [command, ...rest] = argv;
  if (command !== 'replay') return usageError(`unknown command ${JSON.stringify(command)}: expected "replay"`);

  let file: string | null = null;
  let format: ReplayFormat = 'auto';
  let json = false;
  let raw: RawView | undefined;
  let pace: number | undefined;
  let optionsEnded = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!optionsEnded && arg === '--') {
      optionsEnded = true;
    } else if (!optionsEnded && arg === '--json') {
      json = true;
    } else if (!optionsEnded && (arg === '--format' || arg.startsWith('--format='))) {
      const value = arg === '--format' ? rest[++i] : arg.slice('--format='.length);
      if (value === undefined) return usageError(`--format needs a value: expected one of ${REPLAY_FORMATS.join(', ')}`);
      if (!isReplayFormat(value)) {
        return usageError(`unknown format ${JSON.stringify(value)}: expected one of ${REPLAY_FORMATS.join(', ')}`);
      }
      format = value;
    } else if (!optionsEnded && (arg === '--raw' || arg.startsWith('--raw='))) {
      const value = arg === '--raw' ? rest[++i] : arg.slice('--raw='.length);
      if (value === undefined) return usageError(`--raw needs a value: expected one of ${RAW_VIEWS.join(', ')}`);
      if (!isRawView(value)) return usageError(`unknown --raw value ${JSON.stringify(value)}: expected one of ${RAW_VIEWS.join(', ')}`);
      raw = value;
    } else if (!optionsEnded && (arg === '--pace' || arg.startsWith('--pace='))) {
      const value = arg === '--pace' ? rest[++i] : arg.slice('--pace='.length);
      pace = value === undefined ? undefined : parsePace(value);
      if (pace === undefined) {
        return usageError(`--pace needs a whole number of milliseconds from 0 to ${MAX_PACE_MS}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
      }
    } else if (!optionsEnded && arg.startsWith('-') && arg !== '-') {
      return usageError(`unknown option ${JSON.stringify(arg)}: expected one of ${CLI_OPTIONS.join(', ')}`);
    } else if (file === null) {
      file = arg;
    } else {
      return usageError(`unexpected argument ${JSON.stringify(arg)}: replay takes at most one FILE`);
    }
  }
  if (json && raw !== undefined) {
    return usageError('--raw applies to the human view only: --json prints every raw event as an unmappedRawEvent line');
  }
  return { type: 'replay', file, format, json, ...(raw === undefined ? {} : { raw }), ...(pace === undefined ? {} : { pace }) };
}

/** A `--pace` value: digits only (no sign, exponent or fraction), within range; else undefined. */
function parsePace(value: string): number | undefined {
  if (!/^\d{1,6}$/.test(value)) return undefined;
  const ms = Number(value);
  return ms <= MAX_PACE_MS ? ms : undefined;
}

function isReplayFormat(value: string): value is ReplayFormat {
  return (REPLAY_FORMATS as readonly string[]).includes(value);
}

function isRawView(value: string): value is RawView {
  return (RAW_VIEWS as readonly string[]).includes(value);
}

function usageError(message: string): CliCommand {
  return { type: 'usage-error', message };
}
