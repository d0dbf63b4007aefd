import { css } from "lit";

/**
 * The styles of `<raw-panel>`. Every colour, the font and the radius come from CSS custom properties that a host
 * may set (`--raw-panel-bg`, `--raw-panel-fg`, `--raw-panel-muted`, `--raw-panel-border`, `--raw-panel-accent`,
 * `--raw-panel-success`, `--raw-panel-warning`, `--raw-panel-danger`, `--raw-panel-font`, `--raw-panel-radius`);
 * the defaults follow the user's light or dark preference.
 */
export const panelStyles = css`
  :host {
    --_bg: var(--raw-panel-bg, #ffffff);
    --_fg: var(--raw-panel-fg, #1f2328);
    --_muted: var(--raw-panel-muted, #59636e);
    --_border: var(--raw-panel-border, #d1d9e0);
    --_accent: var(--raw-panel-accent, #0969da);
    --_success: var(--raw-panel-success, #1a7f37);
    --_warning: var(--raw-panel-warning, #9a6700);
    --_danger: var(--raw-panel-danger, #cf222e);
    display: block;
    box-sizing: border-box;
    color: var(--_fg);
    background: var(--_bg);
    font: var(--raw-panel-font, 14px/1.45 system-ui, sans-serif);
    border: 1px solid var(--_border);
    border-radius: var(--raw-panel-radius, 8px);
    padding: 12px;
    overflow-wrap: anywhere;
    contain: content;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--raw-panel-bg, #0d1117);
      --_fg: var(--raw-panel-fg, #e6edf3);
      --_muted: var(--raw-panel-muted, #9198a1);
      --_border: var(--raw-panel-border, #3d444d);
      --_accent: var(--raw-panel-accent, #4493f8);
      --_success: var(--raw-panel-success, #3fb950);
      --_warning: var(--raw-panel-warning, #d29922);
      --_danger: var(--raw-panel-danger, #f85149);
    }
  }
  header h2 { font-size: 1.1em; margin: 0; }
  .subtitle, .summary, .muted, .detail, .note { color: var(--_muted); }
  .subtitle, .summary { margin: 2px 0; }
  .state { margin: 4px 0; font-weight: 600; }
  .state.warn { color: var(--_warning); }
  section.block { margin-top: 12px; }
  section.block h3 { font-size: 1em; margin: 0 0 4px; }
  ul, ol { margin: 0; padding-left: 1.2em; }
  ul.items { list-style: none; padding-left: 0; }
  ul.items ul.items { padding-left: 1.4em; }
  li { margin: 2px 0; }
  .glyph { font-family: ui-monospace, monospace; white-space: pre; }
  .s-done, .s-skipped, .lv-success, .f-added { color: var(--_success); }
  .s-in_progress, .lv-info, .f-modified { color: var(--_accent); }
  .s-blocked, .lv-warning { color: var(--_warning); }
  .s-failed, .lv-error, .f-deleted, .error { color: var(--_danger); }
  .priority { font-size: 0.85em; border: 1px solid var(--_border); border-radius: 4px; padding: 0 4px; }
  progress { width: 100%; accent-color: var(--_accent); }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid var(--_border); padding: 2px 6px; text-align: start; }
  td.a-end, th.a-end { text-align: end; }
  td.a-center, th.a-center { text-align: center; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  .markdown :is(pre, code) { font-family: ui-monospace, monospace; background: color-mix(in srgb, var(--_fg) 8%, transparent); }
  .markdown pre { padding: 6px; overflow: auto; }
  .markdown a { color: var(--_accent); }
  .diagram svg { max-width: 100%; height: auto; }
  form .field { margin: 8px 0; border: 0; padding: 0; }
  form label, form legend { font-weight: 600; display: block; }
  form input[type="text"], form textarea { width: 100%; box-sizing: border-box; font: inherit; color: inherit; background: var(--_bg); border: 1px solid var(--_border); border-radius: 4px; padding: 4px; }
  form [aria-invalid="true"] { border-color: var(--_danger); }
  .buttons { display: flex; gap: 8px; margin-top: 8px; }
  button { font: inherit; color: inherit; background: var(--_bg); border: 1px solid var(--_border); border-radius: 4px; padding: 2px 10px; cursor: pointer; }
  button.primary { background: var(--_accent); color: var(--_bg); border-color: var(--_accent); }
  button:focus-visible, input:focus-visible, textarea:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
  .actions { display: inline-flex; gap: 4px; margin-left: 6px; }
  .actions button { font-size: 0.85em; padding: 0 6px; }
  .closed { opacity: 0.7; }
`;
