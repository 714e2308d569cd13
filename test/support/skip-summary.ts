import { RUN_SKIPS } from './skips';

// A mocha root hook plugin (loaded through "require" in .mocharc.json): its global teardown, which
// runs after the reporter's own summary (the pending count among it), prints one line saying what
// was skipped and why (test/support/skips.ts), or nothing when nothing was.

/** Mocha's global teardown: the one summary line. */
export function mochaGlobalTeardown(): void {
  const line = RUN_SKIPS.summary();
  if (line !== null) process.stdout.write(`  ${line}\n\n`);
}
