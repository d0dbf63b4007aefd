import { existsSync, lstatSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InteractionRecord, InteractionStore } from "@raw/panel/host";
import { openPostgresInteractionStore } from "@raw/store-postgres";
import { openSqliteInteractionStore } from "@raw/store-sqlite";
import type { AnyToolRegistration } from "@raw/tool-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type TestCluster } from "../../store-postgres/test/pg-harness.js";
import { type HostSession, openHostSession } from "../src/index.js";

/** A tool that asks one required single-select question and returns the answer. */
const askColour: AnyToolRegistration = {
  name: "ask_colour",
  identity: "local/ask_colour",
  description: "Asks for a colour.",
  inputSchema: { type: "object" },
  panels: [
    {
      id: "q",
      title: "Question",
      icon: "file-text",
      open: "never",
      context: "none",
      placement: "chat",
      acp_plan: false,
      actions: [
        { id: "submit", label: "Send", scope: "block", blocks: ["f"], kind: "response", response: "submit" },
        {
          id: "cancel",
          label: "Cancel",
          scope: "block",
          blocks: ["f"],
          kind: "response",
          response: "cancel",
        },
      ],
    },
  ],
  handler: async (
    _args: unknown,
    context: { interactions?: { request(input: unknown): Promise<unknown> } },
  ) => {
    const answer = await context.interactions?.request({
      panel: "q",
      document: {
        blocks: [
          {
            id: "f",
            kind: "form",
            fields: [
              {
                id: "colour",
                label: "Colour",
                kind: "single_select",
                required: true,
                options: [
                  { id: "red", label: "Red" },
                  { id: "blue", label: "Blue" },
                ],
              },
            ],
          },
        ],
      },
    });
    return { isError: false, content: [{ type: "json" as const, value: answer }] };
  },
};

function published(session: HostSession): Promise<InteractionRecord> {
  return new Promise((resolve) => {
    const stop = session.interactions.subscribe((event) => {
      if (event.type !== "published") return;
      stop();
      resolve(event.request);
    });
  });
}

/**
 * Runs one `ask_colour` call through a session over `store`: an invalid answer is refused and the request stays
 * pending in the store; a valid one answers the call; the record in the store is the answered one.
 */
async function askThroughStore(store: InteractionStore, sessionId: string): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), "raw-host-store-"));
  const session: HostSession = openHostSession({
    cwd,
    tools: [askColour],
    interactive: true,
    store,
    sessionId,
  });
  const asked = published(session);
  const running = session.dispatch({ name: "ask_colour", arguments: {} });
  const request = await asked;
  const base = {
    requestId: request.identity.requestId,
    expectedRevision: request.revision,
    response: "submit" as const,
  };
  await expect(
    Promise.resolve().then(() =>
      session.interactions.submit({ ...base, idempotencyKey: "k1", answers: { colour: "green" } }),
    ),
  ).rejects.toMatchObject({ code: expect.stringMatching(/^interaction_/) });
  expect((await session.interactions.get(request.identity.requestId))?.state).toBe("pending");
  expect((await store.get(sessionId, request.identity.requestId))?.state).toBe("pending");
  await session.interactions.submit({ ...base, idempotencyKey: "k2", answers: { colour: "blue" } });
  const done = await running;
  expect(done.result.isError).toBe(false);
  expect(JSON.stringify(done.result.content)).toContain("blue");
  expect((await store.get(sessionId, request.identity.requestId))?.state).toBe("answered");
  await session.close();
  return request.identity.requestId;
}

describe("openHostSession over any interaction store", () => {
  it("runs on a SQLite file (@raw/store-sqlite): the interactions are synchronous and persisted", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "raw-host-sqlite-")), "state.db");
    const store = openSqliteInteractionStore({ path });
    const requestId = await askThroughStore(store, "s1");
    store.close();
    // The file kept it: a session over the reopened file reads the answered request at once (no promise).
    const reopened = openSqliteInteractionStore({ path });
    try {
      const session = openHostSession({ cwd: tmpdir(), tools: [], store: reopened, sessionId: "s1" });
      expect(session.interactions.get(requestId)?.state).toBe("answered");
      await session.close();
    } finally {
      reopened.close();
    }
  });

  it("a refused state path is untouched: a link to a missing file is refused and nothing is created", () => {
    const dir = mkdtempSync(join(tmpdir(), "raw-host-sqlite-"));
    const target = join(dir, "elsewhere.db");
    const link = join(dir, "state.db");
    symlinkSync(target, link);
    expect(() => openSqliteInteractionStore({ path: link })).toThrow(
      expect.objectContaining({ code: "interaction_store_unsafe" }),
    );
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  describe("on PostgreSQL (@raw/store-postgres, asynchronous)", () => {
    let cluster: TestCluster;
    beforeAll(async () => {
      cluster = await startCluster();
    }, 60_000);
    afterAll(() => cluster?.stop());

    it("answers a form through the session, refusing an invalid answer first", async () => {
      const store = await openPostgresInteractionStore({ connectionString: cluster.url, sweepIntervalMs: 0 });
      try {
        await askThroughStore(store, "pg-session");
      } finally {
        await store.close();
      }
    });
  });
});
