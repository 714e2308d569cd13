import path from 'node:path';
import { main } from '../../lib/cli/main';

/** What one in-process run of the command printed, and its exit status. */
export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of `runCli`. */
export interface RunCliOptions {
  readonly stdin?: AsyncIterable<Uint8Array | string>;
  readonly isTTY?: boolean;
  readonly env?: Record<string, string>;
  readonly signal?: AbortSignal;
}

/** Runs `partstream <argv>` in this process with captured output (unpaced on a fake terminal unless `--pace` is given). */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const status = await main(argv, {
    stdout: { write: (text: string) => stdout.push(text), isTTY: options.isTTY, columns: 100 },
    stderr: { write: (text: string) => stderr.push(text) },
    stdin: options.stdin ?? (async function* () {})(),
    env: options.env ?? {},
    signal: options.signal,
    ttyPaceMs: 0,
  });
  return { status, stdout: stdout.join(''), stderr: stderr.join('') };
}

/** One `--json` output line. */
export type JsonEvent = { readonly event: string } & Record<string, unknown>;

/** Parses `--json` output: one JSON object per line. */
export function jsonEvents(stdout: string): JsonEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JsonEvent);
}

/** The repository root. */
export const REPO_ROOT = path.resolve(__dirname, '../..');

/** The shared fixtures folder (beside the repository), which may be absent. */
export const FIXTURES_DIR = path.resolve(REPO_ROOT, '../shared/fixtures');
