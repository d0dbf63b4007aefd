// The floor of the gate rows (suites/10-acp.mjs): a bare line relay between a client's streams and an agent process,
// doing the same I/O as the gate (spawn, split LF-delimited lines, write each line to the other side, pause on a full
// buffer) and nothing else: no parsing, no rules, no hooks.
import { spawn } from "node:child_process";

function relay(input, output) {
  let rest = "";
  input.setEncoding?.("utf8");
  input.on("data", (chunk) => {
    const text = rest + chunk;
    const lines = text.split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      if (!output.write(`${line}\n`)) {
        input.pause();
        output.once("drain", () => input.resume());
      }
    }
  });
}

/** Starts `command args` and relays lines between `input`/`output` (the client) and it; returns the child. */
export function bareAcpRelay({ command, args, input, output }) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  relay(input, child.stdin);
  relay(child.stdout, output);
  return child;
}
