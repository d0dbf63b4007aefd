// A PreToolUse hook: lets every call go on (an empty answer), after reading the request.
process.stdin.resume();
process.stdin.on("end", () => process.stdout.write("{}"));
