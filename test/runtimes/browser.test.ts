import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { SmokeResults } from './fixtures/smoke-consumer';
import { checkServerSide, checkSmokeResults } from './support/check-smoke';
import { bundleSmokeConsumer, startSmokeServer, type SmokeServer } from './support/smoke-server';
import { noteSkipped } from '../support/skips';

const HOW_TO_GET_CHROMIUM = 'install it with `apt-get install -y chromium` (Debian), or set CHROMIUM_PATH to a Chromium or Chrome binary';

/** The Chromium to drive: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`, else one on the PATH. */
function findChromium(): string | null {
  const given = process.env.CHROMIUM_PATH;
  if (given !== undefined && given !== '') return existsSync(given) ? given : null;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
    } catch {
      // Not on the PATH under this name; try the next one.
    }
  }
  return null;
}

/**
 * Flags for a root user on a machine without a network: no sandbox (root), no GPU, and no
 * background traffic (component updates, sync, QUIC) that a closed network would refuse.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('runtimes: browser (headless Chromium, the library bundled by esbuild for the browser platform)', function () {
  this.timeout(60_000);
  let server: SmokeServer | undefined;
  let browser: Browser | undefined;
  let profile: string | undefined;
  let results: SmokeResults;
  const pageErrors: string[] = [];

  before(async function () {
    const chromium = findChromium();
    if (chromium === null) {
      const how = `Chromium is not installed: ${HOW_TO_GET_CHROMIUM}`;
      // CI installs Chromium in .ci/run: missing there, the browser guarantee would go untested.
      if (process.env.CI === 'true') throw new Error(how);
      noteSkipped(how, 'the browser runtime test');
      this.skip();
    }
    server = await startSmokeServer(await bundleSmokeConsumer());
    profile = mkdtempSync(join(tmpdir(), 'partstream-chromium-'));
    browser = await puppeteer.launch({ executablePath: chromium as string, headless: true, args: CHROMIUM_ARGS, userDataDir: profile, timeout: 30_000 });
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
