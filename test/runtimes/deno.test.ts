import type { SmokeResults } from './fixtures/smoke-consumer';
import { checkServerSide, checkSmokeResults } from './support/check-smoke';
import { findRuntime, missingRuntimeHint, runSmokeInChild } from './support/run-smoke-child';
import { bundleSmokeConsumer, startSmokeServer, type SmokeServer } from './support/smoke-server';
import { noteSkipped } from '../support/skips';

describe('runtimes: Deno (the browser bundle, run by the pinned deno of `npm run runtimes`)', function () {
  this.timeout(60_000);
  let deno: string | null = null;
  let server: SmokeServer | undefined;
  let results: SmokeResults;

  before(async function () {
    deno = findRuntime('deno');
    if (deno === null) {
      const how = missingRuntimeHint('deno');
      if (process.env.CI === 'true') throw new Error(how);
      noteSkipped(how, 'the Deno runtime test');
      this.skip();
    }
    const bundle = await bundleSmokeConsumer();
    server = await startSmokeServer(bundle);
    // Only the loopback server is reachable: Deno's permissions name its address.
    results = await runSmokeInChild(deno as string, ['run', '--no-prompt', '--no-config', `--allow-net=127.0.0.1:${server.port}`], bundle, server.origin);
  });

  after(async () => {
    await server?.close();
  });

  it('streams all five formats, the HTTP client, cancel, both timeouts and media JSON as on Node', () => {
    checkSmokeResults(results, 'Deno');
  });

  it('sent the HTTP request and released the cancelled and timed-out connections', async () => {
    await checkServerSide(server as SmokeServer, 'Deno');
  });
});
