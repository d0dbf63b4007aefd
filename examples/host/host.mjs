// A host on @raw/host: a tool folder, rules, a hook and a panel, with an approval callback that prints the one
// approval view (describeApproval) and says yes only to writes inside the working folder.
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadHookFolder } from "@raw/hook-protocol";
import { openHostSession } from "@raw/host";
import { renderPanelText } from "@raw/panel";
import { loadToolFolders } from "@raw/tool-api";

const here = new URL(".", import.meta.url).pathname;
const cwd = realpathSync(mkdtempSync(join(tmpdir(), "raw-host-example-")));
const tools = await loadToolFolders([{ dir: join(here, "tools", "note"), identity: "local/note" }]);
const hook = await loadHookFolder(join(here, "hooks", "audit"), { id: "local/audit" });
const rules = JSON.parse(readFileSync(join(here, "rules.json"), "utf8"));

const session = openHostSession({
  cwd,
  tools,
  rules,
  hooks: [hook],
  approve: (_request, view) => {
    // The view is already escaped (A1): print it as it is.
    console.log(view.text.split(cwd).join("<cwd>").split(dirname(cwd)).join("<cwd>/.."));
    return view.effects?.every((effect) => !effect.outside) ?? false;
  },
});

const inside = await session.dispatch({ name: "note", arguments: { path: "todo.txt", text: "ship it" } });
console.log(`-> ${inside.result.code ?? "ok"}: ${readFileSync(join(cwd, "todo.txt"), "utf8").trim()}`);
for (const receipt of inside.hooks) console.log(`hook ${receipt.id} ${receipt.event} ${receipt.outcome}`);
const state = session.panels.get("local/note#notes");
if (state) console.log(renderPanelText("Notes", state.document));

const outside = await session.dispatch({
  name: "note",
  arguments: { path: "../evil\u202etxt.sh", text: "\u001b[2J" },
});
console.log(`-> ${outside.result.code}`);
await session.close();
