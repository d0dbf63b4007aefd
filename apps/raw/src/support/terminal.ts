import { randomUUID } from "node:crypto";
import { createInterface, type Interface } from "node:readline";
import type { ApprovalView } from "@raw/host";
import type { TextSink } from "./io.js";
import { displayBlock, displayLine, indent } from "./present.js";

/** How often a y/N question is asked again after an answer that is neither yes nor no; then it means no. */
export const MAX_APPROVAL_ASKS = 3;

/** A line-oriented terminal: prompts go to `output` (stderr), answers come from `input` (a TTY). */
export class Terminal {
  private readonly rl: Interface;
  private closed = false;
  private pending: ((line: string | undefined) => void) | undefined;
  private readonly interruptListeners: Array<() => void> = [];
  /** True once Ctrl-C was pressed while the terminal was reading: the command should exit 130. */
  interrupted = false;

  constructor(
    input: NodeJS.ReadableStream,
    readonly output: TextSink & NodeJS.WritableStream,
  ) {
    this.rl = createInterface({ input, output, terminal: true });
    this.rl.on("close", () => {
      this.closed = true;
      this.settle(undefined);
    });
    // Ctrl-C at a question (the terminal is in raw mode, so it arrives as a key): the line is ended, the question
    // is answered with nothing (no, cancel), and the listeners decide what the command does (exit 130).
    this.rl.on("SIGINT", () => {
      this.interrupted = true;
      if (this.pending !== undefined) this.output.write("^C\n");
      this.settle(undefined);
      for (const listener of this.interruptListeners) listener();
    });
  }

  private settle(line: string | undefined): void {
    const resolve = this.pending;
    this.pending = undefined;
    resolve?.(line);
  }

  /** Asks one question; resolves to the line typed, or `undefined` at end of input (Ctrl-D) or interrupt. */
  question(prompt: string): Promise<string | undefined> {
    if (this.closed || this.interrupted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.pending = resolve;
      this.rl.question(prompt, (answer) => {
        this.settle(answer);
      });
    });
  }

  /** Calls `listener` on Ctrl-C (after the pending question, if any, was answered with nothing). */
  onInterrupt(listener: () => void): void {
    this.interruptListeners.push(listener);
  }

  /** Writes text to the terminal; any control left in it is escaped (LF and TAB kept), so nothing reaches it raw. */
  write(text: string): void {
    this.output.write(displayBlock(text));
  }

  close(): void {
    if (!this.closed) this.rl.close();
  }
}

/** What a y/N answer means: `y`/`yes` (any case, trimmed) approves, `n`/`no` or an empty line denies. */
export function yesNoAnswer(answer: string): boolean | undefined {
  const word = answer.trim().toLowerCase();
  if (word === "y" || word === "yes") return true;
  if (word === "n" || word === "no" || word === "") return false;
  return undefined;
}

/**
 * Asks a y/N question: `y`/`yes` is yes; `n`/`no`, an empty line, end of input (Ctrl-D) and Ctrl-C are no; any
 * other answer (`yes please`) asks again, at most `MAX_APPROVAL_ASKS` times in all, and then means no.
 */
export async function askYesNo(terminal: Terminal, prompt: string): Promise<boolean> {
  for (let asked = 1; ; asked++) {
    const answer = await terminal.question(prompt);
    if (answer === undefined) return false;
    const meaning = yesNoAnswer(answer);
    if (meaning !== undefined) return meaning;
    if (asked >= MAX_APPROVAL_ASKS) {
      terminal.write(`  no clear answer after ${MAX_APPROVAL_ASKS} tries: taken as no\n`);
      return false;
    }
    terminal.write("  please answer y (yes) or n (no)\n");
  }
}

/**
 * The approval prompt: the one approval view of amendment A10 (`describeApproval` of `@raw/host`: the identity,
 * every intended effect one per line with its normalized path, never shortened, then the arguments shortened with
 * the remainder stated; all of it escaped), indented under a header naming the tool; asks y/N (`askYesNo`): only
 * `y`/`yes` approves.
 */
export async function promptApproval(terminal: Terminal, name: string, view: ApprovalView): Promise<boolean> {
  const lines = [
    `approval needed: ${displayLine(name)} (${view.identity})`,
    ...view.lines.slice(1).map((l) => `  ${l}`),
  ];
  terminal.write(`${lines.join("\n")}\n`);
  return askYesNo(terminal, "approve? [y/N] ");
}

/** The prepared form field an interaction request carries (`panels.md` §11.2). */
interface FormFieldView {
  id: string;
  label: string;
  description?: string;
  required?: boolean;
  kind: string;
  multiline?: boolean;
  max_bytes?: number;
  options?: ReadonlyArray<{ id: string; label: string }>;
  min_selected?: number;
  max_selected?: number;
}

/** The parts of an interaction request the terminal adapter reads. */
export interface FormRequestView {
  identity: { requestId: string };
  revision: number;
  document: { title?: string };
  form: { fields: readonly FormFieldView[] };
}

/** A submission of `panels.md` §13.4. */
export interface FormSubmission {
  requestId: string;
  expectedRevision: number;
  idempotencyKey: string;
  response: "submit" | "cancel";
  answers?: Record<string, string | string[]>;
}

const CANCEL = Symbol("cancel");

function pick(field: FormFieldView, token: string): string | undefined {
  const options = field.options ?? [];
  if (/^\d+$/.test(token)) return options[Number(token) - 1]?.id;
  return options.find((option) => option.id === token)?.id;
}

async function askField(
  terminal: Terminal,
  field: FormFieldView,
): Promise<string | string[] | undefined | typeof CANCEL> {
  const required = field.required === true;
  const lines = [`${displayLine(field.label)} (${required ? "required" : "optional"})`];
  if (field.description) lines.push(indent(displayBlock(field.description), 2));
  if (field.kind === "text") {
    if (field.max_bytes !== undefined) lines.push(`  at most ${field.max_bytes} bytes`);
    if (field.multiline) lines.push("  several lines: end with a line holding only a dot (.)");
  } else {
    (field.options ?? []).forEach((option, i) => {
      lines.push(`  ${i + 1}. ${displayLine(option.label)} [id:${displayLine(option.id)}]`);
    });
    if (field.kind === "multi_select") lines.push("  pick several: numbers or ids separated by commas");
  }
  terminal.write(`${lines.join("\n")}\n`);
  for (;;) {
    let answer: string | undefined;
    if (field.kind === "text" && field.multiline) {
      const collected: string[] = [];
      for (;;) {
        const line = await terminal.question(collected.length === 0 ? "> " : ". ");
        if (line === undefined) return CANCEL;
        if (collected.length === 0 && line.trim() === "/cancel") return CANCEL;
        if (line === ".") break;
        if (collected.length === 0 && line === "") break;
        collected.push(line);
      }
      answer = collected.join("\n");
    } else {
      answer = await terminal.question("> ");
      if (answer === undefined || answer.trim() === "/cancel") return CANCEL;
    }
    if (answer.trim() === "") {
      if (!required) return undefined;
      terminal.write("  an answer is required\n");
      continue;
    }
    if (field.kind === "text") return answer;
    if (field.kind === "single_select") {
      const id = pick(field, answer.trim());
      if (id !== undefined) return id;
      terminal.write("  pick one option by its number or id\n");
      continue;
    }
    const tokens = answer
      .split(/[\s,]+/)
      .map((token) => token.trim())
      .filter(Boolean);
    const ids = tokens.map((token) => pick(field, token));
    if (ids.every((id): id is string => id !== undefined)) return ids;
    terminal.write("  pick options by their numbers or ids, separated by commas\n");
  }
}

/**
 * The terminal interaction adapter (informative `panels.md` §13.7): prints the title and each field, reads the
 * answers, re-asks after an invalid value, starts over after a rejected submission, and cancels on `/cancel` or
 * end of input. Each submission has a fresh UUID as its idempotency key.
 */
export function terminalFormAdapter(terminal: Terminal) {
  return async (
    request: FormRequestView,
    _signal: AbortSignal,
    retry?: { error: { code: string; message: string } },
  ): Promise<FormSubmission> => {
    const base = {
      requestId: request.identity.requestId,
      expectedRevision: request.revision,
      idempotencyKey: randomUUID(),
    };
    if (retry !== undefined) {
      terminal.write(
        retry.error.code === "interaction_budget_exceeded"
          ? "Please enter the answers again within the combined result budget.\n"
          : `${displayLine(retry.error.message)}\n`,
      );
    } else {
      const title = typeof request.document.title === "string" ? request.document.title : "Questions";
      terminal.write(`${displayLine(title)}\nEnter /cancel to cancel. Blank skips an optional field.\n`);
    }
    const answers: Record<string, string | string[]> = {};
    for (const field of request.form.fields) {
      const value = await askField(terminal, field);
      if (value === CANCEL) return { ...base, response: "cancel" };
      // Field ids such as `__proto__` are data: define, never assign.
      if (value !== undefined)
        Object.defineProperty(answers, field.id, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return { ...base, response: "submit", answers };
  };
}
