/** What this binding reads from a client's `initialize`: form elicitation and the `_raw/*` extensions it takes. */
export interface AcpClientFeatures {
  /** `clientCapabilities.elicitation.form` was given: interactions go out as `elicitation/create` (form mode). */
  readonly elicitationForm: boolean;
  /** `_meta.raw.panels`: panel changes go out as `_raw/panel/update`, and `_raw/panel/action` is taken. */
  readonly panels: boolean;
  /** `_meta.raw.interactions`: interactions go out as `_raw/interaction/request` when forms are not supported. */
  readonly interactions: boolean;
  /** `_meta.raw.tools`: the client may register tools with `_raw/tool/register` (called with `_raw/tool/call`). */
  readonly tools: boolean;
}

/** The features of a client that advertised nothing. */
export const NO_CLIENT_FEATURES: AcpClientFeatures = Object.freeze({
  elicitationForm: false,
  panels: false,
  interactions: false,
  tools: false,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads the features of `clientCapabilities` (amendment A12): `elicitation.form` (an object), and the `_raw/`
 * extensions under `_meta.raw` — `{ "panels": true, "interactions": true, "tools": true }`. Anything else is off.
 */
export function clientFeaturesOf(capabilities: unknown): AcpClientFeatures {
  if (!isRecord(capabilities)) return NO_CLIENT_FEATURES;
  const elicitation = capabilities.elicitation;
  const meta = isRecord(capabilities._meta) ? capabilities._meta : undefined;
  const raw = meta && isRecord(meta.raw) ? meta.raw : undefined;
  return Object.freeze({
    elicitationForm: isRecord(elicitation) && isRecord(elicitation.form),
    panels: raw?.panels === true,
    interactions: raw?.interactions === true,
    tools: raw?.tools === true,
  });
}
