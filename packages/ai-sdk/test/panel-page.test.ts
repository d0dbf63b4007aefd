import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../../../test-support/browser.js";
import { type PanelPage, startPanelPage } from "../examples/panel-page.js";

let browser: Browser;
let page: PanelPage;

beforeAll(async () => {
  page = await startPanelPage();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await page?.close();
});

describe("examples/panel-page.ts: panel updates of a streamText loop, live in a page (@raw/panel-web in Chromium)", () => {
  it("every request needs the token, on loopback too (A10)", async () => {
    for (const path of ["/", "/events", "/run", "/raw-panel.browser.js", "/?token=wrong"]) {
      const res = await fetch(`${page.origin}${path}`, { method: path === "/run" ? "POST" : "GET" });
      expect(res.status, path).toBe(401);
    }
  });

  it("clicking Run streams the todo panel's frames to <raw-panel>: the plan, the progress, then every item done", async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    const seen: string[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    tab.on("request", (request) => seen.push(new URL(request.url()).origin));
    await tab.goto(page.url);
    await tab.waitForFunction('customElements.get("raw-panel") !== undefined');
    await tab.click("#run");
    const panel = tab.locator('raw-panel[data-panel="builtin/todo#todo"]');
    await expect.poll(() => panel.locator("li[data-item=fix]").getAttribute("data-status")).toBe("done");
    expect(await panel.locator("li[data-item=read]").getAttribute("data-status")).toBe("done");
    // Three committed updates (plan, progress, done) reached the page, in order.
    await expect.poll(() => panel.getAttribute("data-revision")).toBe("3");
    expect(await panel.locator("header h2").textContent()).toContain("Todo");
    await expect.poll(() => tab.locator("#said").textContent()).toBe("The bug is fixed.");
    expect(errors).toEqual([]);
    // The page never reached anything but the example's own server.
    expect(new Set(seen)).toEqual(new Set([page.origin]));
    await tab.close();
  });
});
