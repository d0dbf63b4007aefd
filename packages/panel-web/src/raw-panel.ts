import {
  derivePanelProgress,
  derivePanelSummary,
  type FormAnswerValue,
  type FormBlock,
  type MarkdownBlock,
  type MermaidBlock,
  type PanelAction,
  type PanelBlock,
  type PanelDeclaration,
  type PanelDocument,
  panelTitle,
} from "@raw/panel";
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { unsafeHTML } from "lit/directives/unsafe-html.js";
import { type ItemActions, renderStaticBlock } from "./blocks.js";
import { type FormDraft, type FormHost, renderForm } from "./form.js";
import { EMPTY_PANEL_STATE, type FrameOutcome, nextPanelState, type PanelViewState } from "./frames.js";
import { renderMarkdown } from "./markdown.js";
import { loadMermaidPackage, type MermaidLoader, renderMermaid } from "./mermaid.js";
import { panelStyles } from "./styles.js";

/** Detail of the `raw-form-submit` event: answers that passed `validateFormAnswers` for a form block. */
export interface FormSubmitDetail {
  readonly block: string;
  readonly answers: Record<string, FormAnswerValue>;
  readonly canonicalResult: string;
}

/** Detail of the `raw-action` event: the user selected a declared action (`panels.md` §10.3 request). */
export interface ActionDetail {
  readonly action: string;
  readonly block?: string;
  readonly item?: string;
  /** The declaration's confirmation text, when it has one: the host asks before running. */
  readonly confirm?: string;
}

let instances = 0;

/**
 * `<raw-panel>`: renders one `raw.panel/2` document (all ten block kinds of `panels.md` §4, statuses, derived
 * progress and summary) and applies live frames from a panel host. Documents are untrusted: text is always
 * escaped, markdown has raw HTML disabled and a URL allow-list, Mermaid runs at its strict security level, and a
 * frame is shown only after the contract's own validation. Form input in progress survives live updates.
 *
 * Events (bubbling, composed): `raw-form-submit` (`FormSubmitDetail`), `raw-form-cancel` (`{ block }`),
 * `raw-action` (`ActionDetail`), `raw-frame-rejected` (`{ reason, message }`).
 */
export class RawPanelElement extends LitElement {
  static override styles = panelStyles;

  static override properties = {
    declaration: { attribute: false },
    declaredTitle: { type: String, attribute: "declared-title" },
    awaiting: { type: Boolean },
    outputBudget: { type: Number, attribute: "output-budget" },
    status: { type: String, reflect: true },
    formMessages: { state: true },
    diagrams: { state: true },
  };

  /** The declaration (for its title and actions); optional. */
  declare declaration: PanelDeclaration | undefined;
  /** The title shown when the document has none (default: the declaration's title, else the panel id). */
  declare declaredTitle: string;
  /** Whether a form of this panel is waiting for an answer (default `true`; a host sets it from its interactions). */
  declare awaiting: boolean;
  /** The output budget forms are prepared against (`panels.md` §11.2; default 65,536). */
  declare outputBudget: number;
  /** `live`, `reconnecting` or `unavailable`; a host sets it from its event stream (reflected as an attribute). */
  declare status: "live" | "reconnecting" | "unavailable";
  /** Loads Mermaid on first use (default: a dynamic import of the `mermaid` package). */
  mermaidLoader: MermaidLoader = loadMermaidPackage;

  declare private formMessages: ReadonlyMap<string, { message: string; field?: string }>;
  declare private diagrams: ReadonlyMap<string, { source: string; svg?: string; error?: string }>;
  private view: PanelViewState = EMPTY_PANEL_STATE;
  private readonly drafts = new Map<string, FormDraft>();
  private readonly idPrefix = `rp${++instances}`;

  constructor() {
    super();
    this.declaredTitle = "";
    this.awaiting = true;
    this.outputBudget = 65_536;
    this.status = "live";
    this.formMessages = new Map();
    this.diagrams = new Map();
  }

  /** The document shown, validated; `undefined` before the first frame or after a removal. */
  get document(): PanelDocument | undefined {
    return this.view.document;
  }

  /** Shows a document directly (validated first; an invalid one is refused with `raw-frame-rejected`). */
  set document(value: unknown) {
    const old = this.view.document;
    if (value === undefined) {
      this.view = EMPTY_PANEL_STATE;
    } else {
      this.accept(
        nextPanelState(
          { ...this.view, revision: 0 },
          { type: "update", revision: this.view.revision + 1, document: value, live: false },
        ),
      );
    }
    this.requestUpdate("document", old);
  }

  /** The revision shown (0 before any frame). */
  get revision(): number {
    return this.view.revision;
  }

  /** Whether the panel is closed (its document stays readable). */
  get closed(): boolean {
    return this.view.closed;
  }

  /**
   * Applies one live frame (`{ type: "update", revision, document, closed, live }` or `{ type: "remove" }`) from an
   * untrusted channel. Returns whether it was applied: a malformed frame, an invalid document or a live frame that
   * is not newer than the revision shown changes nothing (and fires `raw-frame-rejected`).
   */
  applyFrame(frame: unknown): boolean {
    const old = this.view.document;
    const applied = this.accept(nextPanelState(this.view, frame));
    if (applied) this.requestUpdate("document", old);
    return applied;
  }

  /** Shows a message under a form (for example the host's rejection of an answer); the answers stay. */
  setFormMessage(block: string, message: string | undefined): void {
    const next = new Map(this.formMessages);
    if (message === undefined) next.delete(block);
    else next.set(block, { message });
    this.formMessages = next;
  }

  /** Clears what was typed into a form (after its interaction settled). */
  resetForm(block: string): void {
    this.drafts.delete(block);
    this.setFormMessage(block, undefined);
  }

  private accept(outcome: FrameOutcome): boolean {
    if (!outcome.ok) {
      this.dispatchEvent(
        new CustomEvent("raw-frame-rejected", {
          detail: { reason: outcome.reason, message: outcome.message },
          bubbles: true,
          composed: true,
        }),
      );
      return false;
    }
    this.view = outcome.state;
    return true;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    this.drawDiagrams();
  }

  /** Renders every Mermaid block whose source changed, lazily loading the package once. */
  private drawDiagrams(): void {
    const blocks = (this.view.document?.blocks ?? []).filter((b): b is MermaidBlock => b.kind === "mermaid");
    for (const block of blocks) {
      const known = this.diagrams.get(block.id);
      if (known && known.source === block.source) continue;
      this.setDiagram(block.id, { source: block.source });
      renderMermaid(block.source, this.mermaidLoader).then(
        (svg) => this.setDiagram(block.id, { source: block.source, svg }),
        (error: unknown) =>
          this.setDiagram(block.id, {
            source: block.source,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
    }
  }

  private setDiagram(id: string, value: { source: string; svg?: string; error?: string }): void {
    const current = this.diagrams.get(id);
    if (current && current.source !== value.source && value.svg !== undefined) return;
    const next = new Map(this.diagrams);
    next.set(id, value);
    this.diagrams = next;
  }

  private fire(name: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private readonly actions: ItemActions = {
    forItem: (block, status) =>
      (this.view.closed ? [] : (this.declaration?.actions ?? [])).filter(
        (a) =>
          a.scope === "item" &&
          (a.blocks === undefined || a.blocks.includes(block.id)) &&
          (a.when === undefined || (a.when.status as readonly string[]).includes(status)),
      ),
    run: (action, block, item) => this.runAction(action, block.id, item),
  };

  private runAction(action: PanelAction, block?: string, item?: string): void {
    const detail: ActionDetail = {
      action: action.id,
      ...(block !== undefined ? { block } : {}),
      ...(item !== undefined ? { item } : {}),
      ...(action.confirm !== undefined ? { confirm: action.confirm } : {}),
    };
    this.fire("raw-action", detail);
  }

  private readonly formHost: FormHost = {
    draft: (block) => {
      let draft = this.drafts.get(block);
      if (!draft) {
        draft = new Map();
        this.drafts.set(block, draft);
      }
      return draft;
    },
    message: (block) => this.formMessages.get(block)?.message,
    invalidField: (block) => this.formMessages.get(block)?.field,
    changed: () => {},
    submit: (block, answers, canonicalResult) => {
      this.setFormMessage(block.id, undefined);
      this.fire("raw-form-submit", { block: block.id, answers, canonicalResult } satisfies FormSubmitDetail);
    },
    reject: (block, message) => {
      const next = new Map(this.formMessages);
      const field = /^(?:interaction_[a-z_]+: )?(\S+) /u.exec(message)?.[1];
      const known = block.fields.some((f) => f.id === field);
      next.set(block.id, known && field !== undefined ? { message, field } : { message });
      this.formMessages = next;
    },
    cancel: (block) => this.fire("raw-form-cancel", { block: block.id }),
    get outputBudget() {
      return 65_536;
    },
    pending: true,
    idPrefix: this.idPrefix,
  };

  private blockActions(block: PanelBlock): TemplateResult | typeof nothing {
    const offered = (this.view.closed ? [] : (this.declaration?.actions ?? [])).filter(
      (a) => a.scope === "block" && (a.blocks === undefined || a.blocks.includes(block.id)),
    );
    if (offered.length === 0) return nothing;
    return html`<span class="actions">${offered.map(
      (a) => html`<button type="button" @click=${() => this.runAction(a, block.id)}>${a.label}</button>`,
    )}</span>`;
  }

  private renderBlock(block: PanelBlock): TemplateResult {
    let body: TemplateResult | undefined = renderStaticBlock(block, this.actions);
    if (body === undefined) {
      if (block.kind === "markdown") {
        body = html`<div class="markdown">${unsafeHTML(renderMarkdown((block as MarkdownBlock).text))}</div>`;
      } else if (block.kind === "mermaid") {
        const diagram = this.diagrams.get(block.id);
        const fallback = block.fallback ?? (block as MermaidBlock).source;
        body =
          diagram?.svg !== undefined
            ? html`<figure class="diagram" role="img" aria-label=${block.fallback ?? block.title ?? "Diagram"}>${unsafeHTML(diagram.svg)}</figure>`
            : html`<pre class="muted" aria-busy=${diagram?.error === undefined ? "true" : "false"}>${fallback}</pre>`;
      } else if (block.kind === "form") {
        body = renderForm(block as FormBlock, {
          ...this.formHost,
          outputBudget: this.outputBudget,
          pending: this.awaiting && !this.view.closed,
          idPrefix: this.idPrefix,
        });
      } else {
        body = html`<p class="muted">${block.fallback ?? `Unsupported block "${block.kind}"`}</p>`;
      }
    }
    const headingId = `${this.idPrefix}-h-${block.id}`;
    return html`<section class="block" data-block=${block.id} data-kind=${block.kind} aria-labelledby=${block.title ? headingId : nothing}>
      ${block.title ? html`<h3 id=${headingId}>${block.title}${this.blockActions(block)}</h3>` : this.blockActions(block)}
      ${body}
    </section>`;
  }

  protected override render(): TemplateResult {
    const document = this.view.document;
    const declared = this.declaredTitle || this.declaration?.title || "";
    const stateLine =
      this.status === "reconnecting"
        ? html`<p class="state warn" role="status">Reconnecting…</p>`
        : this.status === "unavailable"
          ? html`<p class="state warn" role="status">Panel unavailable</p>`
          : nothing;
    if (!document) {
      return html`<header><h2>${declared || "Panel"}</h2></header>${stateLine}<p class="muted">No content yet.</p>`;
    }
    const progress = derivePanelProgress(document);
    const summary = document.summary ?? derivePanelSummary(document, declared);
    const panelActions = (this.view.closed ? [] : (this.declaration?.actions ?? [])).filter(
      (a) => a.scope === "panel",
    );
    return html`<article class=${this.view.closed ? "closed" : ""} aria-label=${panelTitle(document, declared)} data-revision=${this.view.revision} data-status=${document.status ?? "active"}>
      <header>
        <h2>${panelTitle(document, declared)}${this.view.closed ? html` <span class="muted">(closed)</span>` : nothing}
          ${panelActions.length > 0 ? html`<span class="actions">${panelActions.map((a) => html`<button type="button" @click=${() => this.runAction(a)}>${a.label}</button>`)}</span>` : nothing}
        </h2>
        ${document.subtitle ? html`<p class="subtitle">${document.subtitle}</p>` : nothing}
        ${stateLine}
        ${
          progress && progress.total > 0
            ? html`<progress class="overall" aria-label="Overall progress" max=${progress.total} .value=${progress.done}></progress>`
            : nothing
        }
        ${summary ? html`<p class="summary" data-role="summary">${summary}</p>` : nothing}
      </header>
      ${repeat(
        document.blocks,
        (block) => block.id,
        (block) => this.renderBlock(block),
      )}
    </article>`;
  }
}
