import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildHookPayload } from "@raw/hook-protocol";
import { type ApprovalView, callHeader, compactJson, hookReceiptText, stepText } from "@raw/host";
import type { InteractionAdapter } from "@raw/panel/host";
import type { ApprovalRequest } from "@raw/tool-api";
import { parseCommand } from "../support/args.js";
import { type CliIo, cwdOf, EXIT_FAILURE, EXIT_OK } from "../support/io.js";
import { loadWorkspace } from "../support/load-workspace.js";
import { bundledHooksRoot, examplesRoot } from "../support/paths.js";
import { openSession } from "../support/session.js";

/** One scripted call: what it shows, the call, and the result code the script expects (none = success). */
interface Scene {
  title: string;
  tool: string;
  args: unknown;
  expect?: string;
}

const PATCH_WITH_MOVE = [
  "*** Begin Patch",
  "*** Update File: notes.txt",
  "*** Move to: protected/notes.txt",
  "@@",
  "-draft",
  "+final",
  "*** End Patch",
].join("\n");

/** The script: the bundled tools, rules (`examples/rules.json`) and hooks (`guard`, `notify`) at work. */
const SCENES: readonly Scene[] = [
  {
    title:
      "1. A write whose intended effects touch a protected path (config/): policy asks, the script approves",
    tool: "write_file",
    args: {
      operations: [
        { path: "config/app.json", mode: "overwrite", content: '{ "debug": false }\n' },
        { path: "notes.txt", mode: "overwrite", content: "draft\n" },
      ],
    },
  },
  {
    title: "2. A patch that moves a file into protected/: the guard hook denies it before anyone is asked",
    tool: "write_file",
    args: { patch: PATCH_WITH_MOVE },
    expect: "hook_denied",
  },
  {
    title:
      "3. A bash call with rm: the conditional rule asks (the guard only blocks a direct rm), the script approves",
    tool: "bash",
    args: { commands: [{ command: "touch a.tmp b.tmp && ls *.tmp | xargs rm -v" }] },
  },
  {
    title: "4. A todo panel updated over several calls",
    tool: "todo",
    args: {
      mode: "replace",
      title: "Release",
      items: [
        { id: "tests", label: "Run the tests", status: "in_progress" },
        { id: "notes", label: "Write the release notes" },
        { id: "tag", label: "Tag the release" },
      ],
    },
  },
  {
    title: "4. (continued) the tests pass",
    tool: "todo",
    args: {
      mode: "merge",
      items: [
        { id: "tests", status: "done" },
        { id: "notes", status: "in_progress" },
      ],
    },
  },
  {
    title: "4. (continued) notes written, one more task",
    tool: "todo",
    args: {
      mode: "merge",
      items: [
        { id: "notes", status: "done" },
        { id: "announce", label: "Announce it", status: "pending" },
      ],
    },
  },
  {
    title: "5. An ask_user form, answered by the script",
    tool: "ask_user",
    args: {
      title: "Release",
      questions: [
        {
          id: "target",
          label: "Where should it go first?",
          kind: "single_select",
          options: [
            { id: "staging", label: "Staging" },
            { id: "prod", label: "Production" },
          ],
        },
        { id: "note", label: "Anything to tell the team?", kind: "text", required: false },
      ],
    },
  },
  {
    title: "6. A command that fails: the notify hook reports the PostToolUseFailure",
    tool: "bash",
    args: { commands: [{ command: "ls missing-report.txt" }] },
    expect: "command_failed",
  },
];

/** Every hook and event the demo lists; each one visibly runs, or the demo fails. */
const LISTED_HOOKS: readonly string[] = [
  "local/guard PreToolUse",
  "local/notify PostToolUseFailure",
  "local/notify Stop",
];
const LISTED_HOOKS_TEXT = "local/guard (PreToolUse), local/notify (PostToolUseFailure, Stop)";

/** The script's answers to the ask_user form. */
const FORM_ANSWERS: Readonly<Record<string, string | string[]>> = {
  target: "staging",
  note: "ship after lunch",
};

/**
 * `raw demo`: a short scripted session in a temporary folder. Every decision (policy, hooks, approval, panels,
 * the form) shows in the trace; approvals and form answers come from scripted callbacks. Exits 1 when a call does
 * not end the way the script expects.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand("demo", argv);
  const started = performance.now();
  const workspace = await loadWorkspace(
    {
      rules: join(examplesRoot(), "rules.json"),
      hooks: [join(bundledHooksRoot(), "guard"), join(bundledHooksRoot(), "notify")],
      cwd: cwdOf(io),
    },
    io,
  );
  if (workspace === undefined) return EXIT_FAILURE;
  const rules = workspace.rules;
  if (rules === undefined) return EXIT_FAILURE;
  if (parsed.values.web === true) {
    const { runWebDemo } = await import("./demo-web.js");
    return runWebDemo({ scenes: SCENES, tools: workspace.tools, rules: rules, hooks: workspace.hooks }, io);
  }
  const cwd = await mkdtemp(join(tmpdir(), "raw-demo-"));
  const out = (text: string) => io.stdout.write(text);

  const approve = (request: ApprovalRequest, view: ApprovalView): boolean => {
    out(
      `  ┆ approval request for ${request.name}\n${view.lines.map((line) => `  ┆   ${line}\n`).join("")}` +
        "  ┆ the script answers: yes\n",
    );
    return true;
  };
  const adapter: InteractionAdapter = (request) => {
    const answers: Record<string, string | string[]> = {};
    for (const field of request.form.fields) {
      const value = FORM_ANSWERS[field.id];
      if (value !== undefined) answers[field.id] = value;
    }
    out(`  ┆ form "${request.document.title ?? "Questions"}" — the script answers ${compactJson(answers)}\n`);
    return {
      requestId: request.identity.requestId,
      expectedRevision: request.revision,
      idempotencyKey: randomUUID(),
      response: "submit",
      answers,
    };
  };

  out("raw demo: the bundled tools, examples/rules.json and the guard and notify hooks in one session\n");
  out(`session folder: ${cwd}\n`);
  out("rules:\n");
  for (const [i, rule] of (rules.raw as unknown[]).entries()) out(`  ${i}  ${compactJson(rule)}\n`);
  out(`hooks: ${LISTED_HOOKS_TEXT}\n`);

  const session = await openSession({
    cwd,
    tools: workspace.tools,
    rules: rules,
    hooks: workspace.hooks,
    approver: { approve, label: "the demo script" },
    interactionAdapter: adapter,
    onStep: (step) => out(stepText(step)),
  });
  const surprises: string[] = [];
  const fired = new Set<string>();
  try {
    for (const scene of SCENES) {
      out(`\n${scene.title}\n`);
      out(callHeader(scene.tool, scene.args));
      const trace = await session.call(scene.tool, scene.args);
      for (const receipt of trace.hooks) fired.add(`${receipt.id} ${receipt.event}`);
      const code = trace.result.isError ? (trace.result.code ?? "error") : undefined;
      if (code !== scene.expect)
        surprises.push(`${scene.title}: expected ${scene.expect ?? "success"}, got ${code ?? "success"}`);
    }
    // The run ends: Stop goes to every hook subscribed to it (notify), as a host sends it after its last step.
    out("\n7. The run ends: the notify hook receives Stop\n");
    const stop = await session.runHooks(
      "Stop",
      buildHookPayload("Stop", { cwd, run: { status: "completed", steps: SCENES.length } }),
    );
    for (const receipt of stop.receipts) {
      fired.add(`${receipt.id} ${receipt.event}`);
      out(stepText({ step: "hook", status: receipt.outcome, text: hookReceiptText(receipt) }));
    }
  } finally {
    session.close();
    await rm(cwd, { recursive: true, force: true });
  }
  for (const expected of LISTED_HOOKS) {
    if (!fired.has(expected)) surprises.push(`the ${expected} hook never ran`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (surprises.length > 0) {
    io.stderr.write(`raw demo: unexpected outcomes:\n${surprises.map((s) => `  ${s}`).join("\n")}\n`);
    return EXIT_FAILURE;
  }
  out(`\ndemo finished in ${seconds} s: ${SCENES.length} calls, every decision shown above\n`);
  return EXIT_OK;
}
