/** Counts unhandled rejections and uncaught exceptions while installed. */
export interface UnhandledWatch {
  /** What escaped so far. */
  readonly escaped: unknown[];
  /** Waits a macrotask (so pending rejections are reported) and throws if anything escaped since `mark`. */
  settle(mark: number): Promise<void>;
  uninstall(): void;
}

/** Installs process listeners that record every unhandled rejection and uncaught exception. */
export function watchUnhandled(): UnhandledWatch {
  const escaped: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    escaped.push(reason);
  };
  const onException = (error: unknown): void => {
    escaped.push(error);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    escaped,
    async settle(mark) {
      await new Promise((resolve) => setImmediate(resolve));
      if (escaped.length > mark) {
        const first = escaped[mark];
        throw new Error(`${escaped.length - mark} unhandled rejection(s)/exception(s) escaped: ${first instanceof Error ? (first.stack ?? first.message) : String(first)}`);
      }
    },
    uninstall() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}
