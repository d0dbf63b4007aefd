/** The codes this package gives the model (besides the registry's own result codes, `tool-api.md` §8.2). */
export const AI_SDK_CODES = Object.freeze({
  /** The call's arguments are larger than `MAX_ARGUMENT_BYTES`. */
  argumentsTooLarge: "arguments_too_large",
  /** An approval response for a call this session never asked about (forged, replayed, or from before a restart). */
  approvalUnknown: "approval_unknown",
  /** An approval response whose call carries other arguments than the ones that were shown. */
  approvalArgumentsChanged: "approval_arguments_changed",
  /** A rule of the session decides `deny` for the call (the reason names the rule). */
  toolDenied: "tool_denied",
  /** A tool the session does not expose (unknown, hidden or outside the whitelist). */
  unknownTool: "unknown_tool",
} as const);

/** One code of `AI_SDK_CODES`. */
export type AiSdkCode = (typeof AI_SDK_CODES)[keyof typeof AI_SDK_CODES];
