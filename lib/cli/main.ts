import { escapeControlLine } from './escape-control';
import { oneLine } from './one-line';
import { PARTSTREAM_VERSION } from '../clients/version';
import { parseArgs, USAGE } from './parse-args';
import { EXIT_OK, EXIT_STREAM_ERROR, EXIT_USAGE, replay, type CliIo } from './replay';

/**
 * The `partstream` command: parses `argv` (the arguments after the program name), runs it
 * against `io` and resolves with the exit status (0 complete, help or version; 1 stream error;
 * 2 bad usage; 130 interrupted). Never rejects for a stream failure.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const command = parseArgs(argv);
  switch (command.type) {
    case 'help':
      io.stdout.write(`${USAGE}\n`);
      return EXIT_OK;
    case 'version': {
      // One constant for the CLI and the clients' User-Agent (a test keeps it equal to package.json's
      // version); reading package.json at run time would tie the command to where it was built.
      io.stdout.write(`partstream ${escapeControlLine(PARTSTREAM_VERSION)}\n`);
      return EXIT_OK;
    }
    case 'usage-error':
      // The message quotes the offending argument, which may hold control characters.
      io.stderr.write(`partstream: ${escapeControlLine(command.message)}\n(run "partstream --help" for usage)\n`);
      return EXIT_USAGE;
    case 'replay':
      return replay(command, io);
    default:
      return assertNever(command);
  }
}

/**
 * Runs the command in this process with its real standard streams: Ctrl-C cancels the replay,
 * a closed standard output (e.g. `| head`) stops it quietly, and the exit status is set when done.
 */
export function run(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const controller = new AbortController();
  let outputClosed = false;
  let outputError: Error | null = null;
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // A reader that went away (EPIPE, e.g. `| head`) ends the replay quietly; other failures are reported.
    if (!outputClosed && error.code !== 'EPIPE') outputError = error;
    outputClosed = true;
    controller.abort(error);
  });
  const io: CliIo = {
    stdout: {
      write: (text: string) => (outputClosed ? false : process.stdout.write(text)),
      get isTTY() {
        return process.stdout.isTTY;
      },
      get columns() {
        return process.stdout.columns;
      },
    },
    stderr: process.stderr,
    // Touched only for "-": opening standard input early could keep the process waiting on it.
    stdin: { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() },
    env: process.env,
    signal: controller.signal,
  };
  return main(argv, io).then(
    (status) => {
      process.removeListener('SIGINT', onSigint);
      if (outputError !== null) {
        process.stderr.write(`partstream: cannot write the output: ${oneLine(outputError.message)}\n`);
        process.exitCode = EXIT_STREAM_ERROR;
      } else {
        process.exitCode = outputClosed ? EXIT_OK : status;
      }
    },
    (error: unknown) => {
      process.removeListener('SIGINT', onSigint);
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`partstream: internal error: ${oneLine(message)}\n`);
      process.exitCode = EXIT_STREAM_ERROR;
    },
  );
}

function assertNever(value: never): never {
  throw new TypeError(`Expected a known command, got ${JSON.stringify(value)}`);
}

// Run when executed directly (ts-node lib/cli/main.ts); `require` is undefined in the ES module build.
if (typeof require !== 'undefined' && require.main === module) void run();
