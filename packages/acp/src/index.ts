/**
 * `@raw/acp`: Raw contracts over the Agent Client Protocol (protocol 1, amendment A12). `serveAcpAgent` binds host
 * sessions of `@raw/host` to an ACP agent connection; the mapping modules (tool kind, locations, permission options,
 * approval content, plan, elicitation) are shared with an ACP gate.
 */

export {
  ACP_APPROVAL_TIMEOUT_MS,
  approvalTimeoutOf,
  MAX_ACP_APPROVAL_TIMEOUT_MS,
} from "./agent/approval-timeout.js";
export { type AcpClientFeatures, clientFeaturesOf, NO_CLIENT_FEATURES } from "./agent/capabilities.js";
export {
  CLIENT_TOOL_CODES,
  CLIENT_TOOL_IDENTITY_PREFIX,
  type ClientToolRegistration,
  ClientTools,
  clientResultOf,
  MAX_CLIENT_TOOL_DESCRIPTION_BYTES,
  MAX_CLIENT_TOOL_ERROR_BYTES,
  MAX_CLIENT_TOOL_RESULT_BLOCKS,
  type RegisteredClientTool,
  type RejectedClientTool,
} from "./agent/client-tools.js";
export { COMMAND_MODE_HELP, commandModeDriver } from "./agent/command-mode.js";
export type { AcpPromptBlock, AcpStopReason, AcpTurn, AcpTurnDriver } from "./agent/driver.js";
export { createSessionGrants, type SessionGrants } from "./agent/grants.js";
export {
  MAX_PANEL_ACTION_FIELD_CHARS,
  PANEL_ACTION_BUSY,
  PANEL_ACTION_CODES,
  PANEL_ACTION_DENIED,
  type PanelActionAnswer,
  runPanelAction,
} from "./agent/panel-action.js";
export {
  type AcpAgentOptions,
  type AcpMcpMount,
  type AcpMcpServer,
  type AcpSessionBinding,
  createAcpAgent,
  type ServeAcpAgentOptions,
  serveAcpAgent,
} from "./agent/serve.js";
export { stdioStream } from "./agent/stdio.js";
export { explainGate, type GateIdentityExplanation } from "./gate/explain.js";
export {
  type AcpGate,
  type AcpGateAgent,
  type AcpGateBinding,
  type AcpGateExit,
  type AcpGateOptions,
  createAcpGate,
  GATE_ID_PREFIX,
} from "./gate/gate.js";
export {
  ACP_TOOL_KINDS,
  type AcpToolKind,
  GATED_METHODS,
  type GatedMethod,
  gateIdentities,
  gateIdentity,
  identitySafeName,
} from "./gate/identity.js";
export * from "./gate/limits.js";
export { outsideFolderPattern } from "./gate/outside.js";
export { AGENT_PROBE_TIMEOUT_MS, probeAgentName } from "./gate/probe.js";
export { type GatedCall, gatedCallOf, REDACTED_ENV_VALUE } from "./gate/requests.js";
export { gateTools } from "./gate/tools.js";
export * from "./limits.js";
export {
  type ElicitationForm,
  type ElicitationProperty,
  elicitationFormOf,
  interactionMessageOf,
  submissionOf,
} from "./mapping/elicitation.js";
export {
  approvalContent,
  decidePermission,
  PERMISSION_OPTIONS,
  type PermissionDecision,
  type PermissionOption,
  type PermissionOptionKind,
} from "./mapping/permission.js";
export { type AcpPlanEntry, planEntriesOf, planStatusOf } from "./mapping/plan.js";
export {
  type AcpEffectKind,
  type EffectFile,
  effectFiles,
  locationsOf,
  toolKindOf,
} from "./mapping/tool-kind.js";
export { resultContent, type ToolCallTextContent } from "./mapping/tool-result.js";
