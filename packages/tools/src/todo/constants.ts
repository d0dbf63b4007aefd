/** The local id of the `todo` sidebar panel. */
export const TODO_PANEL = "todo";

/** The id of the checklist block in the `todo` document. */
export const TODO_BLOCK = "tasks";

/** The declared title of the `todo` panel. */
export const TODO_TITLE = "Todo";

/** Most items a todo list holds, children included (`panels.md` §4.2 checklist limit). */
export const MAX_TODO_ITEMS = 200;

/** Deepest nesting of a todo item (`panels.md` §4.2). */
export const MAX_TODO_DEPTH = 3;

/** The item statuses of `panels.md` §3.3. */
export const TODO_STATUSES = ["pending", "in_progress", "done", "skipped", "blocked", "failed"] as const;
