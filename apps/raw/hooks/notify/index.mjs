// raw.hook/2 notification: prints a short `message` for a failed tool call and at the end of each run, so it
// shows in the hook receipts. Reads one JSON request line from stdin; never decides anything.

const MAX_MESSAGE_BYTES = 512;

function cut(text) {
  if (Buffer.byteLength(text) <= MAX_MESSAGE_BYTES) return text;
  let out = "";
  for (const point of text) {
    if (Buffer.byteLength(`${out}${point}…`) > MAX_MESSAGE_BYTES) break;
    out += point;
  }
  return `${out}…`;
}

function firstText(result) {
  const block = Array.isArray(result?.content) ? result.content.find((b) => b?.type === "text") : undefined;
  return typeof block?.text === "string" ? block.text.split("\n", 1)[0] : "";
}

function message(request) {
  if (request?.event === "PostToolUseFailure") {
    const tool = request.tool ?? {};
    const code = typeof tool.result?.code === "string" ? tool.result.code : "error";
    const text = firstText(tool.result);
    return `${tool.name ?? tool.identity} failed: ${code}${text === "" ? "" : ` — ${text}`}`;
  }
  if (request?.event === "Stop") {
    const run = request.run ?? {};
    const steps = Number.isInteger(run.steps) ? run.steps : 0;
    const code = typeof run.code === "string" ? ` (${run.code})` : "";
    return `run ${run.status ?? "ended"} after ${steps} ${steps === 1 ? "step" : "steps"}${code}`;
  }
  return "";
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const line = Buffer.concat(chunks).toString("utf8").split("\n", 1)[0];
const text = message(JSON.parse(line));
process.stdout.write(text === "" ? "" : `${JSON.stringify({ message: cut(text) })}\n`);
