/**
 * `@raw/ai-sdk`: a Raw host session's tools, rules, hooks, panels, interactions and approval in Vercel AI SDK apps
 * (`ai` 7): `toAiSdkTools(session)` for the tool set, `rawToolApproval(session)` for the bridged approval.
 */
export { AI_SDK_CODES, type AiSdkCode } from "./codes.js";
export { RawToolCallError } from "./errors.js";
export { MAX_ARGUMENT_BYTES, MAX_PENDING_APPROVALS } from "./limits.js";
export type { AiSdkModelOutput, AiSdkModelPart, AiSdkToolOutput } from "./model-output.js";
export { MAX_REPAIR_TOOL_NAME_CHARS, rawRepairToolCall } from "./repair-tool-call.js";
export {
  type RawToolApproval,
  type RawToolApprovalInput,
  type RawToolApprovalOptions,
  rawToolApproval,
} from "./tool-approval.js";
export { type RawToolMetadata, type ToAiSdkToolsOptions, toAiSdkTools } from "./tools.js";
