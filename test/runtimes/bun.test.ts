import type { SmokeResults } from './fixtures/smoke-consumer';
import { checkServerSide, checkSmokeResults } from './support/check-smoke';
import { findRuntime, missingRuntimeHint, runSmokeInChild } from './support/run-smoke-child';
import { bundleSmokeConsumer, startSmokeServer, type SmokeServer } from './support/smoke-server';
import { noteSkipped } from '../support/skips';

describe('runtimes: Bun (the browser bundle, run by the pinned bun of `npm run runtimes`)', function () {
  this.timeout(60_000);
  let bun: string | null = null;
  let server: SmokeServer | undefined;
  let results: SmokeResults;

  before(async function () {
    bun = findRuntime('bun');
    if (bun === null) {
      const how = missingRuntimeHint('bun');
      if (process.env.CI === 'true') throw new Error(how);
      noteSkipped(how, 'the Bun runtime test');
      this.skip();
    }
    const bundle = await bundleSmokeConsumer();
    server = await startSmokeServer(bundle);
    results = await runSmokeInChild(bun as string, [], bundle, server.origin);
  });

  after(async () => {
    await server?.close();
  });

  it('streams all five formats, the HTTP client, cancel, both timeouts and media JSON as on Node', () => {
    checkSmokeResults(results, 'Bun');
  });

  it('sent the HTTP request and released the cancelled and timed-out connections', async () => {
    await checkServerSide(server as SmokeServer, 'Bun');
  });
});
