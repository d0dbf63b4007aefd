import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium (`npm test` installs it first when missing: scripts/ensure-system-deps.mjs); `RAW_CHROMIUM` overrides the path. */
export const CHROMIUM = process.env.RAW_CHROMIUM ?? "/usr/bin/chromium";

/** Where the browser tests of a package write their screenshots: `<package>/test-output/`. */
export function screenshotsDir(packageRoot: string): string {
  const dir = join(packageRoot, "test-output");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Launches headless Chromium with the flags that keep it off the network. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** What a page did that a hostile document must never cause. */
export interface PageWatch {
  readonly dialogs: string[];
  readonly requests: string[];
  readonly errors: string[];
}

/** Opens a page (once `<raw-panel>` is defined) and records dialogs, requests and page errors. */
export async function openWatchedPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const watch: PageWatch = { dialogs: [], requests: [], errors: [] };
  page.on("dialog", (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("request", (request) => watch.requests.push(request.url()));
  page.on("pageerror", (error) => watch.errors.push(error.message));
  await page.goto(url);
  await page.waitForFunction('customElements.get("raw-panel") !== undefined');
  return { page, watch };
}
