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
