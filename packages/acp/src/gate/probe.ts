import { spawn } from "node:child_process";
import type { AcpGateAgent } from "./gate.js";
import { identitySafeName } from "./identity.js";
import { MAX_ACP_LINE_BYTES } from "./limits.js";
import { readLines } from "./lines.js";

/** How long `probeAgentName` waits for the agent's `initialize` answer, in ms. */
export const AGENT_PROBE_TIMEOUT_MS = 15_000;

/**
 * Starts the agent, sends `initialize` (protocol 1, no client capabilities) and returns its `agentInfo.name` made
 * identity-safe (`agent` when it names none); the agent is stopped after. Rejects when it does not answer in time.
 */
export function probeAgentName(agent: AcpGateAgent, timeoutMs = AGENT_PROBE_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(agent.command, [...(agent.args ?? [])], {
      cwd: agent.cwd,
      env: agent.env ?? process.env,
      stdio: ["pipe", "pipe", "ignore"],
    });
    let settled = false;
    const finish = (error: Error | undefined, name?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      child.kill("SIGTERM");
      if (error) reject(error);
      else resolve(name as string);
    };
    const timer = setTimeout(
      () => finish(new Error(`the agent did not answer initialize within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once("error", (error) => finish(error));
    child.once("exit", (code) =>
      finish(new Error(`the agent exited (code ${code}) before answering initialize`)),
    );
    child.stdin.on("error", () => undefined);
    readLines(
      child.stdout,
      {
        line(text) {
          try {
            const message = JSON.parse(text) as { id?: unknown; result?: { agentInfo?: { name?: unknown } } };
            if (message.id === "raw-probe")
              finish(undefined, identitySafeName(message.result?.agentInfo?.name));
          } catch {
            // not an answer
          }
        },
        oversized() {},
        end() {},
      },
      MAX_ACP_LINE_BYTES,
    );
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: "raw-probe", method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`,
    );
  });
}
