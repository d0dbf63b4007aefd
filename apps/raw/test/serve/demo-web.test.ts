import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchBrowser, openWatchedPage, screenshotsDir } from "../../../../test-support/browser.js";
import { appRoot } from "../cli/helpers.js";
import { startServeProcess } from "./serve-process.js";

let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

it("raw demo --web plays the scripted demo into the page; the person approves and answers", async () => {
  const demo = await startServeProcess([], appRoot, ["demo", "--web"]);
  const { page, watch } = await openWatchedPage(browser, demo.url);
  const calls = page.locator("li.call");
  // Every approval card is answered in the page, and the form too.
  const deadline = Date.now() + 90_000;
  while (!demo.output().includes("demo played") && Date.now() < deadline) {
    const approve = page.locator("article.approval button.primary");
    if ((await approve.count()) > 0) await approve.first().click();
    const submit = page.locator("raw-panel").getByRole("button", { name: "Submit" });
    if ((await submit.count()) > 0 && (await submit.first().isEnabled())) {
      await page.locator("raw-panel").getByLabel("Staging").check();
      await submit.first().click();
    }
    await page.waitForTimeout(200);
  }
  expect(demo.output()).toContain("demo played");
  // The page's timeline and the terminal agree, scene by scene: every scene ran, in order, ending as it says.
  const printed = [...demo.output().matchAll(/^ {2}→ (\S+)$/gmu)].map((m) => (m[1] === "ok" ? "" : m[1]));
  expect(await calls.count()).toBe(printed.length);
  const codes = await calls.evaluateAll((items) =>
    items.reverse().map((i) => i.querySelector(".result")?.getAttribute("data-code") ?? ""),
  );
  expect(codes).toEqual(printed);
  expect(codes).toContain("hook_denied");
  expect(codes.filter((code) => code === "").length).toBeGreaterThanOrEqual(5);
  expect(await page.locator("raw-panel").count()).toBeGreaterThanOrEqual(2);
  expect(watch.errors).toEqual([]);
  await page.screenshot({ path: join(screenshotsDir(appRoot), "demo-web.png"), fullPage: true });
  await page.close();
  expect(await demo.stop()).toBe(0);
});
