/** Longest text of a tool call's final content block, in UTF-8 bytes (the capped result is cut further to this). */
export const MAX_TOOL_RESULT_TEXT_BYTES = 65_536;
/** Most `locations` one tool call reports (a `files` effect lists at most 128). */
export const MAX_TOOL_LOCATIONS = 128;
/** Most plan entries one `plan` update carries (the flattened first checklist is cut there). */
export const MAX_PLAN_ENTRIES = 256;
/** Most times one interaction request is shown again after an answer the interaction service refused. */
export const MAX_INTERACTION_ATTEMPTS = 3;
/** Most ACP sessions one connection keeps open at once; `session/new` past it fails with `session_limit`. */
export const MAX_SESSIONS_PER_CONNECTION = 16;
/** Most bytes of one prompt's text the command-mode driver reads. */
export const MAX_COMMAND_PROMPT_BYTES = 1_048_576;
/** Most tools a client registers over `_raw/tool/register` in one session. */
export const MAX_CLIENT_TOOLS = 64;
/** Longest client tool name, in characters (`acp:<name>` must stay a valid identity). */
export const MAX_CLIENT_TOOL_NAME_CHARS = 64;
/** Largest serialized `input_schema` of a client-registered tool, in UTF-8 bytes. */
export const MAX_CLIENT_TOOL_SCHEMA_BYTES = 65_536;
