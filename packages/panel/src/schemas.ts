import answers from "../schemas/form-answers.schema.json" with { type: "json" };
import declaration from "../schemas/panel-declaration.schema.json" with { type: "json" };
import document from "../schemas/panel-document.schema.json" with { type: "json" };
import update from "../schemas/panel-update.schema.json" with { type: "json" };

// The JSON Schemas describe the shapes for editors and other languages; the validators are the authority (byte
// limits, the 200-item total of a checklist tree, unique ids, cross-field rules, the 65,536-byte document limit).
// Each export is a committed `schemas/*.schema.json` file without `$schema` and `$id`, generated at build time from
// its TypeBox source (`test/schema-source.ts`; `npm run schemas` regenerates them, a test fails on drift), so TypeBox
// is not needed at run time.

const { $schema: _d1, $id: _i1, ...panelDocument } = document;
const { $schema: _d2, $id: _i2, ...panelDeclaration } = declaration;
const { $schema: _d3, $id: _i3, ...panelUpdate } = update;
const { $schema: _d4, $id: _i4, ...formAnswers } = answers;

/**
 * One block of the catalog (`panels.md` §4), or a block of an unknown kind with only the common fields checked
 * (plain JSON Schema; the items schema of a document's `blocks`).
 */
export const PanelBlockSchema = panelDocument.properties.blocks.items;

/** A panel document (`panels.md` §3); the 65,536-byte size limit is checked by `validatePanelDocument`. */
export const PanelDocumentSchema = panelDocument;

/** A panel declaration as written in `tool.json` `panels` (`panels.md` §2, §10). */
export const PanelDeclarationSchema = panelDeclaration;

/** A panel update (`panels.md` §6.2): `replace`, `patch` or `close`; a result block adds `type: "panel"`. */
export const PanelUpdateSchema = panelUpdate;

/**
 * The answers of a submitted form (`panels.md` §11.3): field ids mapped to a text, an option id, or option ids.
 * Which fields, options and limits apply is decided by `validateFormAnswers` against the prepared form.
 */
export const FormAnswersSchema = formAnswers;
