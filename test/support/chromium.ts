// Headless Chromium for the browser tests (the dashboard's, the web SDK's) and bench/dashboard.ts: Debian's
// package at /usr/bin/chromium (playwright's own browser download cannot work offline), launched with one
// set of flags. Test groups skip, saying so once, when it is not installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { executable, requires, type Need } from './requires';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumMissing(): string | undefined {
  return fs.existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not found (apt-get install chromium, or set CHROMIUM_PATH)`;
}

export const CHROMIUM_NEED: Need = executable(CHROMIUM, 'apt-get install chromium, or set CHROMIUM_PATH');

/** `describe` when Chromium (and every other need) is there, else `describe.skip` after one line. */
export function withChromium(group: string, ...more: Need[]): jest.Describe {
  return requires(group, CHROMIUM_NEED, ...more);
}

/**
 * Flags for a sandboxed, offline machine: no GPU, no background calls home that the closed network refuses.
 * `extraArgs` add to them (e.g. --host-resolver-rules to reach the gateway by a host name).
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/** The repository root, from this file compiled or not: the nearest folder above with a package.json. */
function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

/** Builds dist/dashboard from the sources, as `npm install` does, so the test sees the code under test. */
export function buildDashboard(): string {
  const root = repoRoot();
  execFileSync(process.execPath, [path.join(root, 'dashboard', 'build.mjs')], { stdio: 'pipe' });
  return path.join(root, 'dist', 'dashboard');
}

/** The size every browser test's page has: a laptop's window, so the map's views and screenshots agree. */
export const PAGE_VIEWPORT = { width: 1280, height: 800 } as const;

export interface BrowserPage {
  browser: Browser;
  /** A first page, PAGE_VIEWPORT in size. */
  page: Page;
  /** Another page of the same browser, the same size (for groups that want a fresh page per test). */
  newPage(): Promise<Page>;
  /** Closes the pages, then the browser. */
  close(): Promise<void>;
}

/** Chromium launched as launchChromium does (`extraArgs` added to its flags) with one page open. */
export async function browserPage(extraArgs: string[] = []): Promise<BrowserPage> {
  const browser = await launchChromium(extraArgs);
  const newPage = () => browser.newPage({ viewport: PAGE_VIEWPORT });
  try {
    const page = await newPage();
    return {
      browser,
      page,
      newPage,
      close: async () => {
        for (const open of browser.contexts().flatMap((c) => c.pages())) await open.close();
        await browser.close();
      },
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

/**
 * Closes each in the order given (a browser before the gateway it talks to, the gateway before a receiver
 * it calls), skipping those a failed beforeAll never made; every one is closed even when one throws, and the
 * first error is thrown after.
 */
export async function closeInOrder(...closables: Array<{ close(): unknown } | undefined>): Promise<void> {
  let first: unknown;
  for (const c of closables) {
    try {
      await c?.close();
    } catch (err) {
      first ??= err;
    }
  }
  if (first !== undefined) throw first;
}
