import { expect } from 'chai';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { memoryStore } from 'partstream/relay';
import { bundlePage } from '../../examples/relay/bundle-page';
import { startRelayService, type RelayService } from '../../examples/relay/service';
import { launchChromium, requireChromium } from '../support/chromium';

// The relay example's page in headless Chromium: it follows a response through an offline spell,
// a hidden → visible switch and sockets the server kills, and shows the final text exactly once
// (the text that came live, callback by callback, equals it: no event twice, none lost).

// A plain CommonJS script (it also runs from the command line), hence require.
const { ensureBuild } = require('../../scripts/ensure-build.js') as { ensureBuild(root: string): string };

/** The transcript's text and reasoning, joined by hand from examples/relay/transcript.sse. */
const TEXT =
  'A relay keeps each response in a store, numbered event by event. A browser that drops its connection comes back with the last event it saw and gets exactly the rest: nothing twice, nothing lost. Stop works from any process, and a late viewer replays the whole answer.';
const REASONING = 'The user asks why a relay helps. Explain reconnects and stop.';

interface PageState {
  readonly status: string;
  readonly liveText: string;
  readonly finalText: string | null;
  readonly completions: number;
}

const pageState = (page: Page): Promise<PageState> => page.evaluate('window.__relayExample') as Promise<PageState>;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('examples/relay page in headless Chromium: offline, hidden → visible, killed sockets', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let service: RelayService | undefined;
  let profile: string | undefined;
  const store = memoryStore();
  const pageErrors: string[] = [];

  before(async function () {
    const chromium = requireChromium(this, 'the relay example in Chromium');
    ensureBuild(path.resolve(__dirname, '../..'));
    service = await startRelayService({ store, pageScript: await bundlePage(), paceMs: 80 });
    ({ browser, profile } = await launchChromium(chromium));
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    await store.close();
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  });

  it('shows reasoning and text live and the final text exactly once', async () => {
    const page = await (browser as Browser).newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    await page.goto(`${(service as RelayService).url}/`, { waitUntil: 'load' });
    await page.waitForFunction('window.__relayExample !== undefined');
    await page.click('#ask');
    await page.waitForFunction('window.__relayExample.liveText.length > 10', { timeout: 15_000 });

    await page.setOfflineMode(true);
    await sleep(400);
    await page.setOfflineMode(false);
    await sleep(150);
    for (const visibility of ['hidden', 'visible']) {
      await page.evaluate((value) => {
        const doc = (globalThis as unknown as { document: { dispatchEvent(event: unknown): void } }).document;
        Object.defineProperty(doc, 'visibilityState', { value, configurable: true });
        doc.dispatchEvent(new Event('visibilitychange'));
      }, visibility);
      await sleep(100);
    }
    await page.waitForFunction('window.__relayExample.status === "streaming"');
    await sleep(150);
    expect((await pageState(page)).status, 'still streaming when the sockets are killed').to.equal('streaming');
    expect((service as RelayService).dropViewers(), 'events connections killed').to.be.at.least(1);

    await page.waitForFunction('window.__relayExample.status !== "streaming"', { timeout: 20_000 });
    const state = await pageState(page);
    expect(state.status).to.equal('done');
    expect(state.completions).to.equal(1);
    expect(state.finalText).to.equal(TEXT);
    expect(state.liveText).to.equal(TEXT);
    expect(await page.$eval('#text', (node) => node.textContent)).to.equal(TEXT);
    expect(await page.$eval('#reasoning', (node) => node.textContent)).to.equal(REASONING);
    expect(pageErrors).to.deep.equal([]);
  });
});
