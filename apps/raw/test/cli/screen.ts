import { spawnSync } from "node:child_process";
import { join } from "node:path";
import xterm from "@xterm/headless";
import { appRoot, bin, fixtures } from "./helpers.js";

/** What a person sees after a run in a terminal: the screen, logical lines, and what the terminal was told to do. */
export interface Screen {
  /** Logical lines: a line the terminal wrapped at its width is joined with its continuation. */
  lines: string[];
  /** The rows in view at the end (what a person sees without scrolling back), trailing blank rows dropped. */
  visible: string[];
  /** Every title the program set (OSC 0/1/2). */
  titles: string[];
  /** Links the program opened (OSC 8): the terminal would make text clickable. */
  links: string[];
  /** The bell rang (BEL outside an escape sequence). */
  bells: number;
  status: number | null;
}

/** Width of the emulated terminal. */
export const SCREEN_COLUMNS = 100;
/** Height of the emulated terminal unless a test asks for another. */
export const SCREEN_ROWS = 40;

/**
 * Runs the built `raw` in a real pseudo-terminal (`test/fixtures/pty-run.py`, Python's `pty`), typing `script`'s
 * answers when the terminal shows the expected texts, and feeds every byte it wrote, untouched, into a headless
 * xterm.js: the result is the screen a person would read, after cursor moves, erasures and the rest.
 */
export async function runOnScreen(
  args: readonly string[],
  script: ReadonlyArray<readonly [string, string]>,
  cwd = appRoot,
  rows = SCREEN_ROWS,
  /** Render the screen as it was when this text first appeared (for example the question), not at the end. */
  until?: string,
): Promise<Screen> {
  const run = spawnSync(
    "python3",
    [join(fixtures, "pty-run.py"), JSON.stringify(script), process.execPath, bin, ...args],
    { cwd, encoding: "utf8", timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  const shown = run.stdout ?? "";
  const at = until === undefined ? -1 : shown.indexOf(until);
  const screen = await render(at === -1 ? shown : shown.slice(0, at + (until?.length ?? 0)), rows);
  return { ...screen, status: run.status };
}

/** Interprets `bytes` (the terminal's output) in a headless xterm.js and reads back the screen. */
export async function render(bytes: string, rows = SCREEN_ROWS): Promise<Omit<Screen, "status">> {
  const terminal = new xterm.Terminal({
    cols: SCREEN_COLUMNS,
    rows,
    scrollback: 100_000,
    allowProposedApi: true,
  });
  const titles: string[] = [];
  const links: string[] = [];
  let bells = 0;
  terminal.onTitleChange((title) => titles.push(title));
  terminal.onBell(() => bells++);
  terminal.parser.registerOscHandler(8, (data) => {
    const url = data.slice(data.indexOf(";") + 1);
    if (url !== "") links.push(url);
    return false;
  });
  await new Promise<void>((resolve) => terminal.write(bytes, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i);
    if (line === undefined) continue;
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  while (lines.at(-1) === "") lines.pop();
  const visible: string[] = [];
  for (let i = buffer.viewportY; i < buffer.viewportY + rows; i++)
    visible.push(buffer.getLine(i)?.translateToString(true) ?? "");
  while (visible.at(-1) === "") visible.pop();
  terminal.dispose();
  return { lines, visible, titles, links, bells };
}

/** The code points amendment A1 says are never written raw (LF is a line break here, so it cannot show). */
export const RAW_CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
