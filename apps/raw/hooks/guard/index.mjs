// raw.hook/2 PreToolUse gate: denies a direct `rm` in builtin/bash commands and writes under a protected folder
// by builtin/write_file; everything else continues. Reads one JSON request line from stdin, answers on stdout.

// The predicates of hook.json, in JavaScript syntax (RE2's \s is [\t\n\f\r ]).
const RM = /(^|[;&|()\n])[\t\n\f\r ]*(sudo[\t\n\f\r ]+)?(\/usr\/bin\/|\/bin\/)?rm([\t\n\f\r ]|$)/;
const PROTECTED = /\/protected\//;
const MAX_REASON_CHARS = 300;

function cut(text) {
  return text.length <= MAX_REASON_CHARS ? text : `${text.slice(0, MAX_REASON_CHARS - 1)}…`;
}

function decide(request) {
  if (request?.event !== "PreToolUse") return {};
  const tool = request.tool ?? {};
  if (tool.identity === "builtin/bash") {
    const commands = Array.isArray(tool.arguments?.commands) ? tool.arguments.commands : [];
    for (const entry of commands) {
      if (typeof entry?.command === "string" && RM.test(entry.command)) {
        return {
          decision: "deny",
          reason: cut(
            `guard: direct rm is not allowed (${entry.command.trim()}); ask the user to remove files`,
          ),
        };
      }
    }
  }
  if (tool.identity === "builtin/write_file") {
    const files = Array.isArray(tool.effects?.files) ? tool.effects.files : [];
    for (const file of files) {
      if (typeof file?.path === "string" && PROTECTED.test(file.path)) {
        return { decision: "deny", reason: cut(`guard: ${file.path} is inside a protected folder`) };
      }
    }
  }
  return { decision: "continue" };
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const line = Buffer.concat(chunks).toString("utf8").split("\n", 1)[0];
// A request that cannot be read fails the hook (exit 1), so the gate blocks with an error: fail closed.
process.stdout.write(`${JSON.stringify(decide(JSON.parse(line)))}\n`);
