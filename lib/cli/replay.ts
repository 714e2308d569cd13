import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ChatResponse, StreamingChatResponseHandler } from '../handler/types';
import { consumeStream } from '../driver/consume-stream';
import { demoRecordingChunks } from './demo-recording';
import { HumanView } from './human-view';
import { JsonView } from './json-view';
import { escapeControlLine } from './escape-control';
import { formatHint, StreamHead } from './format-hint';
import { oneLine } from './one-line';
import { PacedHandler } from './paced-handler';
import { DEFAULT_TTY_PACE_MS, TTY_PACE_BUDGET_MS, type CliCommand } from './parse-args';
import { COLOUR_STYLE, PLAIN_STYLE, useColour } from './text-style';

/** Somewhere the command writes text: standard output or standard error. */
export interface CliOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** What the command reads from and writes to; `process` in real use, fakes in tests. */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Read for the file name `-`. */
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Cancels the replay (e.g. on Ctrl-C). */
  readonly signal?: AbortSignal;
  /**
   * The pace (milliseconds before each streamed delta) when `--pace` is not given, standard output
   * is a terminal and `--json` is off; `DEFAULT_TTY_PACE_MS` when absent. Piped or `--json` output is
   * never paced unless `--pace` asks.
   */
  readonly ttyPaceMs?: number | undefined;
}

/** The exit status after a complete response. */
export const EXIT_OK = 0;
/** The exit status after a stream error. */
export const EXIT_STREAM_ERROR = 1;
/** The exit status for bad usage (unknown option, unreadable file). */
export const EXIT_USAGE = 2;
/** The exit status after the replay was interrupted (128 + SIGINT). */
const EXIT_CANCELLED = 130;

type ReplayCommand = Extract<CliCommand, { type: 'replay' }>;

/** Width used for one-line summaries when standard output is not a terminal. */
const DEFAULT_WIDTH = 120;

/**
 * Runs `partstream replay`: reads the recording (a file, standard input, or the embedded one),
 * drives it through `consumeStream` into the human or the JSON view, and returns the exit status.
 * When a stream read with an explicit format fails, the error line says which format its first
 * bytes look like, if another.
 */
export async function replay(command: ReplayCommand, io: CliIo): Promise<number> {
  const source = await openSource(command, io);
  if (typeof source === 'string') {
    io.stderr.write(`partstream: ${escapeControlLine(source)}\n`);
    return EXIT_USAGE;
  }
  const write = (text: string): void => {
    io.stdout.write(text);
  };
  const writeError = (text: string): void => {
    io.stderr.write(text);
  };
  const colour = useColour(io.stdout.isTTY, io.env);
  const width = io.stdout.isTTY === true && io.stdout.columns !== undefined && io.stdout.columns > 20 ? io.stdout.columns : DEFAULT_WIDTH;
  const given = command.format;
  // Only a format the user named can be the wrong one: auto-detection already says what it found.
  const head = given === 'auto' ? null : new StreamHead();
  const hint = (): string => (head === null || given === 'auto' ? '' : formatHint(head, given));
  const human = command.json ? null : new HumanView({ write, writeError, style: colour ? COLOUR_STYLE : PLAIN_STYLE, width, raw: command.raw, errorHint: hint });
  const view: StreamingChatResponseHandler = human ?? new JsonView(write);
  const paceMs = replayPaceMs(command, io);
  // Unpaced, the view is the handler itself: nothing extra per callback. The terminal's default
  // pace adds a bounded time in all; a pace the user asked for is kept.
  const budgetMs = command.pace === undefined ? TTY_PACE_BUDGET_MS : Infinity;
  const handler = paceMs > 0 ? new PacedHandler(view, paceMs, io.signal, budgetMs) : view;
  const format = command.file === null && command.format === 'auto' ? 'anthropic' : command.format;
  if (human !== null) {
    const what = command.file === null ? 'the embedded recording' : command.file === '-' ? 'standard input' : command.file;
    const style = colour ? COLOUR_STYLE : PLAIN_STYLE;
    // A file name is as untrusted as the file: it may come from a listing of someone else's folder.
    write(`${style.dim(escapeControlLine(`replaying ${what} (format: ${format})`))}\n\n`);
  }

  try {
    const chunks = head === null ? source.chunks : head.pass(source.chunks);
    const outcome = await consumeStream(chunks, handler, { format, signal: io.signal });
    switch (outcome.status) {
      case 'completed':
        return EXIT_OK;
      case 'failed':
        if (human === null) io.stderr.write(`partstream: stream error: ${oneLine(outcome.error.message)}${hint()}\n`);
        else if (hasContent(outcome.partial)) human.partial(outcome.partial, 'failed');
        else human.hiddenRawNote();
        return EXIT_STREAM_ERROR;
      case 'cancelled':
        if (human !== null && hasContent(outcome.partial)) human.partial(outcome.partial, 'was cancelled');
        else human?.hiddenRawNote();
        return EXIT_CANCELLED;
      default:
        return assertNever(outcome);
    }
  } finally {
    source.close();
  }
}

/**
 * Milliseconds to wait before each streamed delta: `--pace` when given; otherwise
 * `io.ttyPaceMs` (default `DEFAULT_TTY_PACE_MS`) for the human view on a terminal — adding
 * `TTY_PACE_BUDGET_MS` at most to the whole replay — and 0 when the output is piped or `--json`,
 * so scripts and pipes never wait.
 */
export function replayPaceMs(command: ReplayCommand, io: Pick<CliIo, 'stdout' | 'ttyPaceMs'>): number {
  if (command.pace !== undefined) return command.pace;
  if (command.json || io.stdout.isTTY !== true) return 0;
  return io.ttyPaceMs ?? DEFAULT_TTY_PACE_MS;
}

interface OpenSource {
  readonly chunks: AsyncIterable<Uint8Array | string>;
  close(): void;
}

/** The recording's bytes, or the one-line reason it cannot be read. */
async function openSource(command: ReplayCommand, io: CliIo): Promise<OpenSource | string> {
  if (command.file === null) {
    // Delivered without pauses of its own: the replay's pace applies to every source alike.
    return { chunks: demoRecordingChunks({ delayMs: 0, signal: io.signal }), close: () => undefined };
  }
  if (command.file === '-') return { chunks: io.stdin, close: () => undefined };
  const path = command.file;
  try {
    const info = await stat(path);
    if (info.isDirectory()) return `cannot replay ${path}: expected a file, got a directory`;
  } catch (error) {
    return `cannot read ${path}: ${describeFsError(error)}`;
  }
  const stream = createReadStream(path);
  return { chunks: stream, close: () => stream.destroy() };
}

function describeFsError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return oneLine(error instanceof Error ? error.message : String(error));
}

function hasContent(response: ChatResponse): boolean {
  return response.aiMessage.parts.length > 0 || response.metadata.id !== null;
}

function assertNever(value: never): never {
  throw new TypeError(`Expected a known stream outcome, got ${JSON.stringify(value)}`);
}
