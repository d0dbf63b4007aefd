// The gate rows of suites/10-acp.mjs (issue 27): per-message overhead of `createAcpGate` against a bare line relay
// (lib/bare-acp-relay.mjs) doing the same I/O, with the same bare agent (lib/acp-gate-agent.mjs) and the same client
// in this process. Two loads: a stream of `session/update` notifications (per message) and a forwarded
// `fs/read_text_file` round trip (an `allow` rule; the gate dispatches it through a host session). Target: gate <=
// 1.2 x floor + 0.2 ms per message.
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { bareAcpRelay } from "./bare-acp-relay.mjs";
import { compareAsync, info, row } from "./harness.mjs";

const AGENT = fileURLToPath(new URL("./acp-gate-agent.mjs", import.meta.url));
const FLOOD = 2000;

/** A client on two streams: `request(method, params)` resolves with the answer; fs reads are answered at once. */
function benchClient(input, output) {
  let next = 0;
  let rest = "";
  let updates = 0;
  const pending = new Map();
  output.setEncoding("utf8");
  output.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "") continue;
      const message = JSON.parse(line);
      if (message.method === "session/update") updates++;
      else if (message.method === "fs/read_text_file")
        input.write(
          `${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: "bench file\n" } })}\n`,
        );
      else if (message.method === undefined && pending.has(message.id)) {
        pending.get(message.id)(message);
        pending.delete(message.id);
      }
    }
  });
  return {
    get updates() {
      return updates;
    },
    request(method, params) {
      const id = ++next;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        input.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    },
  };
}

export async function gateRows(suite, m, cwd) {
  const gateIn = new PassThrough();
  const gateOut = new PassThrough();
  const gate = m.createAcpGate({
    agent: { command: process.execPath, args: [AGENT] },
    input: gateIn,
    output: gateOut,
    onDiagnostic: () => undefined,
    session: (binding) =>
      m.openHostSession({
        cwd,
        tools: binding.tools,
        rules: [{ match: "acp/*/fs/read_text_file", effect: "allow" }],
      }),
  });
  const floorIn = new PassThrough();
  const floorOut = new PassThrough();
  const floor = bareAcpRelay({ command: process.execPath, args: [AGENT], input: floorIn, output: floorOut });
  const viaGate = benchClient(gateIn, gateOut);
  const viaFloor = benchClient(floorIn, floorOut);
  try {
    await viaGate.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    await viaFloor.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const flood = (client) => async () => {
      const before = client.updates;
      await client.request("bench/flood", { n: FLOOD });
      if (client.updates - before !== FLOOD)
        throw new Error(`got ${client.updates - before} of ${FLOOD} updates`);
    };
    const read = (client) => async () => {
      const r = await client.request("bench/read", {});
      if (r.result?.read !== 11) throw new Error(`read failed: ${JSON.stringify(r).slice(0, 200)}`);
    };
    const s = await compareAsync({ gate: flood(viaGate), floor: flood(viaFloor) }, { rounds: 6, calls: 5 });
    const r = await compareAsync({ gate: read(viaGate), floor: read(viaFloor) }, { rounds: 10, calls: 30 });
    const perUpdate = { gate: s.gate / FLOOD, floor: s.floor / FLOOD };
    const updateTarget = 1.2 * perUpdate.floor + 0.2;
    const readTarget = 1.2 * r.floor + 0.2;
    return [
      row(
        suite,
        "gate / (1.2 x bare relay + 0.2 ms), per session/update in a stream of 2,000",
        perUpdate.gate / updateTarget,
        { max: 1 },
        `gate ${(perUpdate.gate * 1000).toFixed(2)} us, relay ${(perUpdate.floor * 1000).toFixed(2)} us per update (${perUpdate.gate / perUpdate.floor > 0 ? (perUpdate.gate / perUpdate.floor).toFixed(2) : "-"}x the relay; median of 2,000-update streams)`,
      ),
      row(
        suite,
        "gate / (1.2 x bare relay + 0.2 ms), forwarded fs/read_text_file round trip (allow rule)",
        r.gate / readTarget,
        { max: 1 },
        `gate ${r.gate.toFixed(3)} ms, relay ${r.floor.toFixed(3)} ms, added ${(r.gate - r.floor).toFixed(3)} ms (median per round trip)`,
      ),
      info(
        suite,
        "gate: bare agent and client",
        "agent = lib/acp-gate-agent.mjs (no SDK), client in this process, both sides wall time interleaved",
      ),
    ];
  } finally {
    gate.close();
    floor.kill();
    gateIn.end();
    floorIn.end();
    await gate.closed.catch(() => undefined);
  }
}
