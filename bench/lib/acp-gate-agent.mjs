// A bare ACP agent for the gate rows of suites/10-acp.mjs: raw JSON-RPC lines on stdio, no SDK, so both sides of a
// row pay the same agent cost. `initialize` names it "bench"; `bench/flood { n }` streams n `session/update`
// notifications then answers; `bench/read` asks the client `fs/read_text_file` and answers once the client did.
let buffer = "";
let asks = 0;
const waiting = new Map();
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const update = (i) =>
  JSON.stringify({
    jsonrpc: "2.0",
    method: "session/update",
    params: {
      sessionId: "s-1",
      update: {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `chunk ${i} of a streamed answer` },
      },
    },
  });
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let newline = buffer.indexOf("\n");
  while (newline !== -1) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    newline = buffer.indexOf("\n");
    if (line.trim() === "") continue;
    const message = JSON.parse(line);
    if (message.method === "initialize") {
      send({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: 1, agentInfo: { name: "bench" }, agentCapabilities: {} },
      });
    } else if (message.method === "bench/flood") {
      const lines = [];
      for (let i = 0; i < message.params.n; i++) lines.push(update(i));
      process.stdout.write(`${lines.join("\n")}\n`);
      send({ jsonrpc: "2.0", id: message.id, result: { sent: message.params.n } });
    } else if (message.method === "bench/read") {
      const id = `read-${++asks}`;
      waiting.set(id, message.id);
      send({
        jsonrpc: "2.0",
        id,
        method: "fs/read_text_file",
        params: { sessionId: "s-1", path: "/tmp/bench/a.txt" },
      });
    } else if (message.method === undefined && waiting.has(message.id)) {
      const original = waiting.get(message.id);
      waiting.delete(message.id);
      send({ jsonrpc: "2.0", id: original, result: { read: message.result?.content?.length ?? -1 } });
    }
  }
});
