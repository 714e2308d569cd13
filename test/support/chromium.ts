import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { noteSkipped } from './skips';

const HOW_TO_GET_CHROMIUM = 'install it with `apt-get install -y chromium` (Debian), or set CHROMIUM_PATH to a Chromium or Chrome binary';

/**
 * Flags for a root user on a machine without a network: no sandbox (root), no GPU, and no
 * background traffic (component updates, sync, QUIC) that a closed network would refuse.
 */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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
 * The Chromium binary for a `before` hook: without one the suite is skipped with the install hint
 * (`what` names it in the skip summary), except under `CI=true`, where `.ci/run` installs Chromium
 * and a missing one would leave the browser guarantee untested: then it throws.
 */
export function requireChromium(context: Mocha.Context, what: string): string {
  const chromium = findChromium();
  if (chromium !== null) return chromium;
  const how = `Chromium is not installed: ${HOW_TO_GET_CHROMIUM}`;
  if (process.env.CI === 'true') throw new Error(how);
  noteSkipped(how, what);
  return context.skip();
}

/** Headless Chromium with a fresh profile folder (the caller removes `profile` after closing it). */
export async function launchChromium(chromium: string): Promise<{ browser: Browser; profile: string }> {
  const profile = mkdtempSync(join(tmpdir(), 'partstream-chromium-'));
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: CHROMIUM_ARGS, userDataDir: profile, timeout: 30_000 });
  return { browser, profile };
}
