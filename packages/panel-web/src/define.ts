import { RawPanelElement } from "./raw-panel.js";

/** Registers `<raw-panel>` (once; a second copy of this module leaves the first registration in place). */
export function defineRawPanel(name = "raw-panel"): void {
  if (!customElements.get(name)) customElements.define(name, class extends RawPanelElement {});
}

defineRawPanel();
