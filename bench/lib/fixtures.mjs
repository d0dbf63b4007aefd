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

/** A small seeded random generator (the same inputs on every run, distinct per seed). */
export function seeded(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

const WORDS = [
  "git",
  "ls",
  "npm",
  "cat",
  "grep",
  "echo",
  "node",
  "make",
  "find",
  "sed",
  "awk",
  "tar",
  "cp",
  "mv",
];
const FLAGS = ["-la", "-f", "--force", "-9", "-rf", "--short", "-v", "-n", "1", "/dev/x", "| sh", "| bash"];

/**
 * `count` bash and write_file calls that no earlier call repeats: every command and path embeds the call's own
 * serial, random words (some of them the `words` the scaled rules look for) and random flags, so a regex engine
 * meets strings it has never seen (no cached automaton state helps). Some calls trigger rules.
 */
export function unseenCalls(count, seed, { cwd = "/repo", words = 0, bashOnly = false } = {}) {
  const rnd = seeded(seed);
  const word = () => (words > 0 && rnd(3) === 0 ? `w${rnd(words).toString(36)}` : WORDS[rnd(WORDS.length)]);
  const calls = [];
  for (let i = 0; i < count; i++) {
    const serial = `${seed.toString(36)}x${i.toString(36)}`;
    if (bashOnly || i % 2 === 0) {
      const commands = [];
      const n = 1 + rnd(4);
      for (let c = 0; c < n; c++) {
        const parts = [];
        const m = 2 + rnd(4);
        for (let k = 0; k < m; k++) parts.push(`${word()} ${FLAGS[rnd(FLAGS.length)]}`);
        if (rnd(25) === 0) parts.push("rm -rf build");
        commands.push({ command: `${parts.join(rnd(2) ? " && " : " ; ")} src/${serial}/d${c}` });
      }
      calls.push({ identity: "builtin/bash", arguments: { commands }, effects: undefined });
    } else {
      const operations = [];
      const n = 1 + rnd(8);
      for (let o = 0; o < n; o++) {
        const dir = ["src", "lib", "config", "test", "docs"][rnd(5)];
        const leaf = rnd(30) === 0 ? ".env" : rnd(30) === 0 ? "protected/keys.txt" : `f${serial}${o}.ts`;
        operations.push({ path: `${dir}/${serial}/${leaf}`, mode: "overwrite", content: `// ${serial}\n` });
      }
      const files = operations.map((op) => ({ path: `${cwd}/${op.path}`, operation: "write" }));
      calls.push({ identity: "builtin/write_file", arguments: { operations }, effects: { files } });
    }
  }
  return calls;
}

/**
 * `count` conditional `ask` rules on `builtin/bash` commands (after one `*` allow), each with its own word in one of
 * five realistic shapes, so no two patterns are alike: the rule sets of the policy scaling rows.
 */
export function scaledRules(count) {
  const rules = [{ match: "*", effect: "allow" }];
  for (let i = 0; i < count; i++) {
    const w = `w${i.toString(36)}`;
    const shapes = [
      `(^|[;&|()\\n])\\s*(sudo\\s+)?${w}(\\s|$)`,
      `\\b${w}\\b.*\\|\\s*(sh|bash)\\b`,
      `${w}\\s+(-f|--force)`,
      `>\\s*/dev/${w}`,
      `\\b${w}\\s+-9\\s+1\\b`,
    ];
    rules.push({
      match: "builtin/bash",
      effect: "ask",
      when: { source: "arguments", any: "commands[*].command", regex: shapes[i % shapes.length] },
    });
  }
  return rules;
}
