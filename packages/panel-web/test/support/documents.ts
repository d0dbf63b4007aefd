/** A document with every block kind of `panels.md` §4.2 plus one unknown kind. */
export const EVERY_KIND = {
  title: "Release",
  subtitle: "Everything a panel can show",
  blocks: [
    {
      id: "tasks",
      kind: "checklist",
      title: "Tasks",
      items: [
        { id: "t1", label: "Write the failing test", status: "done" },
        {
          id: "t2",
          label: "Fix the API",
          status: "in_progress",
          priority: "high",
          note: "waiting on review",
          ref: { path: "src/api.ts", line: 4 },
          children: [{ id: "t5", label: "Validate input", status: "blocked" }],
        },
        { id: "t3", label: "Update docs" },
      ],
    },
    {
      id: "plan",
      kind: "steps",
      title: "Steps",
      items: [
        { id: "s1", label: "Build", status: "done", started_at: 1000, ended_at: 4000 },
        { id: "s2", label: "Deploy", status: "failed", detail: "timeout" },
      ],
    },
    { id: "bar", kind: "progress", title: "Upload", label: "Uploading", value: 3, max: 4 },
    { id: "kv", kind: "key_value", title: "Facts", entries: [{ key: "branch", value: "main" }] },
    {
      id: "tbl",
      kind: "table",
      title: "Checks",
      columns: [
        { id: "name", label: "Name" },
        { id: "ms", label: "Time", align: "end" },
      ],
      rows: [{ id: "r1", status: "done", cells: { name: "lint", ms: "120" } }],
    },
    {
      id: "md",
      kind: "markdown",
      title: "Notes",
      text: "## Heading\n\nSome **bold** text and `code`.\n\n[docs](https://example.com/docs)",
    },
    {
      id: "log",
      kind: "timeline",
      title: "Log",
      events: [
        { id: "e1", at: 1_700_000_000_000, level: "info", label: "Started" },
        { id: "e2", at: 1_700_000_060_000, level: "error", label: "Failed once", detail: "retrying" },
      ],
    },
    {
      id: "changed",
      kind: "files",
      title: "Files",
      entries: [
        { path: "src/a.ts", status: "modified", line: 3 },
        { path: "src/b.ts", status: "added", label: "new module" },
      ],
    },
    {
      id: "q",
      kind: "form",
      title: "Questions",
      fields: [
        {
          id: "env",
          label: "Which environment?",
          kind: "single_select",
          required: true,
          options: [
            { id: "staging", label: "Staging" },
            { id: "prod", label: "Production" },
          ],
        },
        { id: "notes", label: "Notes", kind: "text", multiline: true, max_bytes: 20 },
      ],
    },
    { id: "flow", kind: "mermaid", title: "Flow", source: "flowchart LR\nA-->B", fallback: "A leads to B" },
    { id: "x", kind: "future_kind", title: "Later", fallback: "Shown as fallback text" },
  ],
};

/** A checklist document with `done` of its `total` items finished. */
export function checklist(done: number, total: number) {
  return {
    title: "Live",
    blocks: [
      {
        id: "tasks",
        kind: "checklist",
        items: Array.from({ length: total }, (_, i) => ({
          id: `i${i}`,
          label: `Item ${i}`,
          status: i < done ? "done" : i === done ? "in_progress" : "pending",
        })),
      },
    ],
  };
}

/** Deep nesting in markdown: a 64 KiB document is over the limits, so the markdown block holds 16 KiB of it. */
const NESTED_MARKDOWN = "> ".repeat(4000) + "deep";

/** A document whose strings carry every trick a hostile tool could try. All of it must stay inert text. */
export const HOSTILE = {
  title: "<img src=x onerror=\"window.__pwned='title'\">",
  subtitle: "<script>window.__pwned='subtitle'</script>",
  blocks: [
    {
      id: "md",
      kind: "markdown",
      text: [
        "<script>window.__pwned='script'</script>",
        '<img src="/evil.png" onerror="window.__pwned=\'img\'">',
        "<style>:host{display:none} *{display:none !important}</style>",
        "[click me](javascript:window.__pwned='link')",
        "[data](data:text/html,<script>alert(1)</script>)",
        "[vb](vbscript:msgbox(1))",
        "![tracker](/tracker.png)",
        '<a href="javascript:alert(1)">raw anchor</a>',
        '<iframe src="/frame"></iframe>',
        "[ok](https://example.com/safe)",
      ].join("\n\n"),
    },
    { id: "deep", kind: "markdown", text: NESTED_MARKDOWN },
    {
      id: "kv",
      kind: "key_value",
      entries: [
        { key: "onerror", value: "<svg onload=\"window.__pwned='svg'\"></svg>" },
        { key: "style", value: "</style><style>*{visibility:hidden}</style>" },
      ],
    },
    {
      id: "flow",
      kind: "mermaid",
      source:
        "%%{init: {'securityLevel': 'loose', 'themeCSS': '* { display: none }'}}%%\nflowchart LR\nA[\"<img src=/mermaid-evil.png onerror=alert(1)>\"]-->B\nclick A call alert(1)\nclick B \"javascript:alert(2)\"",
      fallback: "diagram",
    },
  ],
};
