import { createToolRegistry, loadToolFolders } from "@raw/tool-api";
import { bundledToolFolders } from "@raw/tools";

// Every manifest is validated before any entry is imported; each tool is loaded as builtin/<name>.
const tools = await loadToolFolders(bundledToolFolders());
// Panel blocks go to the host's panel sink: a host shows them in its panels (here they are printed).
const registry = createToolRegistry({
  panelSink: (blocks, call) => {
    for (const block of blocks) console.log(`${call.identity} -> panel ${block.panel} (${block.op})`);
  },
});
registry.register(tools.map((tool) => tool.registration));
console.log(registry.definitions().map((definition) => definition.name));
// [ 'write_file', 'bash', 'todo', 'ask_user', 'diagram' ]

const result = await registry.dispatch(
  { name: "todo", arguments: { mode: "replace", items: [{ id: "ship", label: "Ship it", status: "done" }] } },
  { cwd: process.cwd() },
);
// builtin/todo -> panel todo (replace)
console.log(result.isError, result.content);
// false []
