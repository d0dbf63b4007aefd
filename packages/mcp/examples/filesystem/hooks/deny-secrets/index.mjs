// raw.hook/2 PreToolUse gate: hook.json sends only calls whose `path` is under a `secrets` folder; deny them all.
for await (const _chunk of process.stdin);
process.stdout.write(
  `${JSON.stringify({ decision: "deny", reason: "deny-secrets: the secrets folder is off limits" })}\n`,
);
