/**
 * Debian's Chromium (CHROMIUM_PATH) with the project's flags, each bench run in a fresh on-disk
 * profile: IndexedDB and the service worker behave as on a device, and no run sees another's data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = createRequire(import.meta.url)('../scripts/chromium-flags.json');

/** A browser on a new profile named from `prefix`; `close()` ends it and removes the profile. */
export async function launchFreshProfile(prefix) {
  const profile = mkdtempSync(join(tmpdir(), prefix));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}
