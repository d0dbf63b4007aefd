// Shared inputs for the benchmarks: bash-like and write_file-like arguments, and the 50-rule policy.

/** Arguments of a write_file call with `n` operations (distinct paths, every mode). */
export function writeFileArgs(n = 16) {
  const modes = ["overwrite", "append"];
  const operations = [];
  for (let i = 0; i < n; i++) {
    operations.push({
      path: `src/module${i}/file${i}.ts`,
      mode: modes[i % 2],
      content: `export const value${i} = ${i};\n`,
    });
  }
  return { operations };
}

/** Arguments of a bash call with `n` commands. */
export function bashArgs(n = 4, tail = "") {
  const commands = [];
  for (let i = 0; i < n; i++)
    commands.push({
      command: `git status --short && ls -la src/dir${i} | grep -v node_modules${i === n - 1 ? tail : ""}`,
    });
  return { commands };
}

/** The bash tool's input schema (as the bundled tool declares it, simplified). */
export const BASH_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["commands"],
  properties: {
    commands: {
      type: "array",
      minItems: 1,
      maxItems: 16,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["command"],
        properties: {
          command: { type: "string", minLength: 1 },
          timeout_ms: { type: "integer", minimum: 1 },
        },
      },
    },
  },
};

const COMMAND_PATTERNS = [
  "(^|[;&|()\\n])\\s*(sudo\\s+)?(/usr/bin/|/bin/)?rm(\\s|$)",
  "\\bcurl\\b.*\\|\\s*(sh|bash)\\b",
  "git\\s+push\\s+(-f|--force)",
  "\\bchmod\\s+777\\b",
  "\\bdd\\s+if=",
  "\\bmkfs\\b",
  ">\\s*/dev/sd",
  "\\bshutdown\\b",
  "\\breboot\\b",
  "\\bkill\\s+-9\\s+1\\b",
  "\\bnpm\\s+publish\\b",
  "\\bdocker\\s+system\\s+prune\\b",
  "\\bterraform\\s+destroy\\b",
  "\\bkubectl\\s+delete\\b",
  "\\bssh\\s",
];
const PATH_PATTERNS = [
  "/protected/",
  "\\.env$",
  "^/etc/",
  "\\.git/",
  "(^|/)id_rsa",
  "\\.pem$",
  "/node_modules/",
  "package-lock\\.json$",
  "^/usr/",
  "\\.github/workflows/",
  "/secrets?/",
  "\\.key$",
  "Dockerfile$",
  "/migrations/",
  "\\.sql$",
];

/** 50 policy rules: 20 unconditional globs, 15 conditional `ask` rules on commands and 15 on file paths. */
export function fiftyRules() {
  const rules = [{ match: "*", effect: "allow" }];
  for (let i = 0; i < 8; i++) rules.push({ match: `mcp/server${i}/*`, effect: i % 2 ? "deny" : "ask" });
  for (let i = 0; i < 6; i++) rules.push({ match: `agent/tool${i}`, effect: "allow" });
  rules.push({ match: "builtin/*", effect: "allow" });
  rules.push({ match: "mcp/server1/public", effect: "allow" });
  rules.push({ match: "acp:*", effect: "ask" });
  rules.push({ match: "local/?x", effect: "deny" });
  rules.push({ match: "builtin/bash", effect: "allow" });
  for (const regex of COMMAND_PATTERNS) {
    rules.push({
      match: "builtin/bash",
      effect: "ask",
      when: { source: "arguments", any: "commands[*].command", regex },
    });
  }
  for (const regex of PATH_PATTERNS) {
    rules.push({
      match: "builtin/write_file",
      effect: "ask",
      when: { source: "effects", any: "files[*].path", regex },
    });
  }
  return rules;
}

/** 1,000 calls mixing bash-like and write_file-like arguments (with their effects), some of which trigger rules. */
export function thousandCalls(cwd = "/repo") {
  const calls = [];
  for (let i = 0; i < 1000; i++) {
    if (i % 2 === 0) {
      const tail = i % 10 === 0 ? " ; rm -rf build" : i % 14 === 0 ? " && git push --force" : "";
      calls.push({ identity: "builtin/bash", arguments: bashArgs(1 + (i % 4), tail), effects: undefined });
    } else {
      const args = writeFileArgs(1 + (i % 8));
      if (i % 9 === 1) args.operations[0].path = "config/protected/keys.txt";
      if (i % 15 === 3) args.operations[0].path = ".env";
      const files = args.operations.map((o) => ({
        path: `${cwd}/${o.path}`.replace(/\/\.\//g, "/"),
        operation: "write",
      }));
      calls.push({ identity: "builtin/write_file", arguments: args, effects: { files } });
    }
  }
  return calls;
}
