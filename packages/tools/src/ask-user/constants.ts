/** The local id of `ask_user`'s chat panel (`panels.md` §13.8). */
export const QUESTIONS_PANEL = "questions";

/** The id of the form block `ask_user` publishes. */
export const FORM_BLOCK = "form";

/** Most questions one `ask_user` call may ask. */
export const MAX_QUESTIONS = 3;

/** Longest wait `ask_user` accepts: 24 hours (`panels.md` §13.2). */
export const MAX_ASK_TIMEOUT_MS = 86_400_000;

/** The message of `interaction_unavailable` (`panels.md` §13.2 step 1). */
export const UNAVAILABLE_MESSAGE = "interaction_unavailable: this host has no response adapter";
