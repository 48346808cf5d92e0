// Headless Chromium for dashboard tests: Debian's package at /usr/bin/chromium (playwright's own browser
// download cannot work offline). Tests skip, saying so once, when it is not installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumMissing(): string | undefined {
  return fs.existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not found (apt-get install chromium, or set CHROMIUM_PATH)`;
}

/** Flags for a sandboxed, offline machine: no GPU, no background calls home that the closed network refuses. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Builds dist/dashboard from the sources, as `npm install` does, so the test sees the code under test. */
export function buildDashboard(): void {
  execFileSync(process.execPath, [path.join(__dirname, '..', '..', 'dashboard', 'build.mjs')], { stdio: 'pipe' });
}
