import { rmSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';
import type { SmokeResults } from './fixtures/smoke-consumer';
import { checkServerSide, checkSmokeResults } from './support/check-smoke';
import { bundleSmokeConsumer, startSmokeServer, type SmokeServer } from './support/smoke-server';
import { launchChromium, requireChromium } from '../support/chromium';

describe('runtimes: browser (headless Chromium, the library bundled by esbuild for the browser platform)', function () {
  this.timeout(60_000);
  let server: SmokeServer | undefined;
  let browser: Browser | undefined;
  let profile: string | undefined;
  let results: SmokeResults;
  const pageErrors: string[] = [];

  before(async function () {
    const chromium = requireChromium(this, 'the browser runtime test');
    server = await startSmokeServer(await bundleSmokeConsumer());
    ({ browser, profile } = await launchChromium(chromium));
    const page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(`page error: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (request) => {
      // The library aborts a request once it is done with the body: after the format's terminal event
      // (the body's last bytes may still be on their way), on cancel and on timeout. Any other failure is a fault.
      const why = request.failure()?.errorText ?? '';
      if (why !== 'net::ERR_ABORTED') pageErrors.push(`request failed: ${request.url()} ${why}`);
    });
    await page.goto(`${server.origin}/`, { waitUntil: 'load' });
    await page.waitForFunction('window.__smoke !== undefined', { timeout: 10_000 });
    const settled = (await page.evaluate('window.__smoke')) as { results?: SmokeResults; error?: string };
    if (settled.results === undefined) throw new Error(`Expected the page to report smoke results, got: ${settled.error ?? 'nothing'}\n${pageErrors.join('\n')}`);
    results = settled.results;
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  });

  it('streams all five formats, the HTTP client, cancel, both timeouts and media JSON as on Node', () => {
    checkSmokeResults(results, 'Chromium');
  });

  it('sent the HTTP request and released the cancelled and timed-out connections', async () => {
    await checkServerSide(server as SmokeServer, 'Chromium');
  });

  it('logged no page error and failed no request', () => {
    if (pageErrors.length > 0) throw new Error(`Expected a quiet page, got:\n${pageErrors.join('\n')}`);
  });
});
