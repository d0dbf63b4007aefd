import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describeApproval } from "@raw/host";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openWatchedPage, screenshotsDir } from "../../../../test-support/browser.js";
import { appRoot, fixtures, tempDir } from "../cli/helpers.js";
import { type ServeProcess, startServeProcess } from "./serve-process.js";

const SCREENSHOTS = screenshotsDir(appRoot);

let browser: Browser;
let serve: ServeProcess;
let cwd: string;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Starts `raw serve` with the fixture rules in a fresh working folder (per test). */
async function start(): Promise<void> {
  cwd = tempDir("raw-serve-page-");
  serve = await startServeProcess(["--cwd", cwd, "--rules", join(fixtures, "serve", "rules.json")], appRoot);
}

async function stop(): Promise<void> {
  expect(await serve.stop()).toBe(0);
}

async function compose(page: Page, tool: string, args: unknown): Promise<void> {
  await page.selectOption("#tool", tool);
  await page.fill("#arguments", JSON.stringify(args));
  await page.getByRole("button", { name: "Run", exact: true }).click();
}

const TODO = {
  mode: "replace",
  items: [
    { id: "a", label: "Write the tests", status: "in_progress" },
    { id: "b", label: "Ship", status: "pending" },
  ],
};

describe("raw serve in Chromium", () => {
  it("runs a call from the composer, shows every step and the live panel", async () => {
    await start();
    const { page, watch } = await openWatchedPage(browser, serve.url);
    await expect.poll(() => page.locator("#connection").textContent()).toBe("Live");
    await compose(page, "todo", TODO);
    const call = page.locator("li.call").first();
    await expect.poll(() => call.getAttribute("data-status")).toBe("done");
    const steps = await call
      .locator("ol.steps > li")
      .evaluateAll((items) =>
        items.map((i) => `${i.getAttribute("data-step")}:${i.getAttribute("data-status")}`),
      );
    expect(steps.slice(0, 7)).toEqual([
      "exposure:ok",
      "validation:ok",
      "effects:none",
      "policy:allow",
      "hook:none",
      "approval:skipped",
      "handler:ran",
    ]);
    const panel = page.locator("raw-panel");
    await expect.poll(() => panel.locator("li[data-item=a]").getAttribute("data-status")).toBe("in_progress");
    expect(await panel.locator("[data-role=summary]").textContent()).toBe("0/2 · Write the tests");
    expect(watch.errors).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, "serve-call.png"), fullPage: true });
    await page.close();
    await stop();
  });

  it("asks before an `ask` call with an approval card: effects first, then arguments; only its buttons decide", async () => {
    await start();
    const { page } = await openWatchedPage(browser, serve.url);
    await compose(page, "write_file", {
      operations: [{ path: "notes.txt", mode: "overwrite", content: "hello" }],
    });
    const card = page.locator("article.approval");
    await expect.poll(() => card.count()).toBe(1);
    const order = await card.evaluate((node) =>
      [...node.querySelectorAll("h3, ul.effects li, pre.arguments")].map((n) =>
        n.tagName === "H3" ? n.textContent : n.className || "effect",
      ),
    );
    expect(order).toEqual(["Intended effects", "effect", "Arguments", "arguments"]);
    expect(await card.locator("ul.effects li").first().textContent()).toContain(join(cwd, "notes.txt"));
    expect(existsSync(join(cwd, "notes.txt"))).toBe(false);
    await page.screenshot({ path: join(SCREENSHOTS, "serve-approval.png"), fullPage: true });
    await card.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.locator("li.call").first().getAttribute("data-status")).toBe("done");
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("hello");
    expect(await card.count()).toBe(0);
    await compose(page, "write_file", {
      operations: [{ path: "other.txt", mode: "overwrite", content: "no" }],
    });
    await expect.poll(() => page.locator("article.approval").count()).toBe(1);
    await page.locator("article.approval").getByRole("button", { name: "Deny" }).click();
    await expect
      .poll(() => page.locator("li.call").first().locator(".result").getAttribute("data-code"))
      .toBe("approval_denied");
    expect(existsSync(join(cwd, "other.txt"))).toBe(false);
    await page.close();
    await stop();
  });

  it("escapes bidi, C1 and ESC in the approval card and the timeline, the same text as describeApproval (A1, A10)", async () => {
    // No --rules: the default rules (A10) ask before builtin/write_file.
    cwd = tempDir("raw-serve-page-");
    serve = await startServeProcess(["--cwd", cwd], appRoot);
    const { page } = await openWatchedPage(browser, serve.url);
    const path = "notes\u202etxt.exe\u009b2J\u001b]0;pwned\u0007";
    const args = { operations: [{ path, mode: "overwrite", content: "\u2066x\u2069\u001b[31m" }] };
    await compose(page, "write_file", args);
    const card = page.locator("article.approval");
    await expect.poll(() => card.count()).toBe(1);
    const view = describeApproval(
      { identity: "builtin/write_file", arguments: args, effects: { files: [{ path, operation: "write" }] } },
      { cwd },
    );
    const shown = await card.evaluate((node) => ({
      effects: [...node.querySelectorAll("ul.effects li")].map((li) => li.textContent),
      args: node.querySelector("pre.arguments")?.textContent,
      all: node.textContent ?? "",
    }));
    expect(shown.effects).toEqual(view.effects?.map((effect) => effect.line));
    expect(shown.args).toBe(view.arguments);
    const timeline = (await page.locator("li.call").first().textContent()) ?? "";
    for (const text of [shown.all, timeline]) {
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    expect(shown.all).toContain("\\u202e");
    expect(timeline).toContain("\\u2066");
    await card.getByRole("button", { name: "Deny" }).click();
    await expect
      .poll(() => page.locator("li.call").first().locator(".result").getAttribute("data-code"))
      .toBe("approval_denied");
    await page.close();
    await stop();
  });

  it("keeps an approval waiting across a reload, and a panel action that hits `ask` still asks", async () => {
    await start();
    const { page } = await openWatchedPage(browser, serve.url);
    await compose(page, "todo", TODO);
    const panel = page.locator("raw-panel");
    await expect.poll(() => panel.locator("li[data-item=b]").count()).toBe(1);
    // "Mark done" is the primary item action: a tool call with source user_action, and the rules ask for it.
    await panel.locator("li[data-item=b] button.glyph").click();
    await expect.poll(() => page.locator("article.approval").count()).toBe(1);
    await page.reload();
    await expect.poll(() => page.locator("article.approval").count()).toBe(1);
    const actionCall = page.locator("li.call").first();
    expect(await actionCall.textContent()).toContain("panel action");
    await page.locator("article.approval").getByRole("button", { name: "Approve" }).click();
    await expect
      .poll(() => page.locator("raw-panel li[data-item=b]").getAttribute("data-status"))
      .toBe("done");
    await page.close();
    await stop();
  });

  it("answers a form in the page: invalid answers stay pending with the message, a reload keeps it waiting", async () => {
    await start();
    const { page } = await openWatchedPage(browser, serve.url);
    await compose(page, "ask_user", {
      questions: [
        {
          id: "env",
          label: "Which environment?",
          kind: "single_select",
          options: [
            { id: "staging", label: "Staging" },
            { id: "prod", label: "Production" },
          ],
        },
        { id: "why", label: "Why?", kind: "text", max_bytes: 10 },
      ],
    });
    const panel = page.locator("raw-panel");
    await expect.poll(() => panel.locator("form").count()).toBe(1);
    await expect.poll(() => panel.getByRole("button", { name: "Submit" }).isEnabled()).toBe(true);
    await panel.getByRole("button", { name: "Submit" }).click();
    await expect
      .poll(() => panel.locator("[role=alert]").textContent())
      .toBe("interaction_invalid: env is required");
    await page.reload();
    const again = page.locator("raw-panel");
    await expect.poll(() => again.getByRole("button", { name: "Submit" }).isEnabled()).toBe(true);
    await again.getByLabel("Production").check();
    await again.locator("input[name=why]").click();
    await page.keyboard.type("because it is friday");
    await again.getByRole("button", { name: "Submit" }).click();
    await expect
      .poll(() => again.locator("[role=alert]").textContent())
      .toBe("interaction_invalid: why exceeds its effective byte limit");
    await page.screenshot({ path: join(SCREENSHOTS, "serve-form.png"), fullPage: true });
    await again.locator("input[name=why]").fill("friday");
    await again.getByRole("button", { name: "Submit" }).click();
    const call = page.locator("li.call").first();
    await expect.poll(() => call.getAttribute("data-status")).toBe("done");
    expect(JSON.parse((await call.locator(".result pre").textContent()) ?? "")).toEqual({
      status: "answered",
      answers: { env: "prod", why: "friday" },
    });
    await page.close();
    await stop();
  });

  it("shows the connection state when the server goes away", async () => {
    await start();
    const { page } = await openWatchedPage(browser, serve.url);
    await expect.poll(() => page.locator("#connection").textContent()).toBe("Live");
    await stop();
    await expect
      .poll(() => page.evaluate("document.body.dataset.connection"), { timeout: 10_000 })
      .not.toBe("live");
    await page.close();
  });
});
