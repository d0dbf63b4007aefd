import type { Ajv as AjvCore, Options } from "ajv";
import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as formatsModule from "ajv-formats";

/** The JSON Schema dialects an object schema may declare. */
export type Dialect = "draft-07" | "2019-09" | "2020-12";

type FormatsPlugin = (ajv: AjvCore) => AjvCore;
// ajv-formats is CommonJS: its ES import is the plugin or a namespace holding it as `default`, depending on the loader.
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin;

/**
 * Ajv merges the errors of every `$ref` call that is not inlined (recursive schemas, refs to refs) with
 * `vErrors = vErrors.concat(callee.errors)`: with `allErrors`, an array of n failing items costs O(n²) copies
 * (32,000 failing items took 22 s, 200,000 several minutes). The generated code is rewritten to append in place,
 * which gives the same list in linear time. When Ajv's code generation changes and the pattern no longer occurs,
 * the code is left as it was (correct, only slower).
 */
const ERROR_CONCAT = /vErrors\.concat\(([\w$.]+\.errors)\)/g;
const APPEND_ERRORS =
  "const rawAppendErrors = (target, source) => { if (target === source) return target.concat(source); " +
  "for (let i = 0; i < source.length; i++) target.push(source[i]); return target; };\n";

/** Rewrites Ajv's generated code so that merged `$ref` errors are appended in place (see `ERROR_CONCAT`). */
export function linearErrorMerge(code: string): string {
  if (!code.includes("vErrors.concat(")) return code;
  return APPEND_ERRORS + code.replace(ERROR_CONCAT, "rawAppendErrors(vErrors, $1)");
}

/** The validator configuration of tool-api.md §3.3: strict, all errors, formats, never rewriting data. */
export const OPTIONS: Options = {
  strict: true,
  allErrors: true,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  validateFormats: true,
  addUsedSchema: false,
  code: { process: linearErrorMerge },
  // Schemas are checked against their dialect's meta-schema by validators generated at build time
  // (`meta-validators.ts`), so no instance compiles a meta-schema at run time (that cost ~85 ms per process).
  validateSchema: false,
};

/** The meta-schema each dialect's schemas are checked against. */
export const META_SCHEMA_IDS: Readonly<Record<Dialect, string>> = {
  "draft-07": "http://json-schema.org/draft-07/schema",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/** Creates a fresh Ajv instance of `dialect` with ajv-formats added. */
export function createAjv(dialect: Dialect, options: Options = {}): AjvCore {
  const merged = { ...OPTIONS, ...options };
  const ajv =
    dialect === "draft-07"
      ? new Ajv(merged)
      : dialect === "2019-09"
        ? new Ajv2019(merged)
        : new Ajv2020(merged);
  addFormats(ajv);
  return ajv;
}

const shared = new Map<Dialect, AjvCore>();

/** The shared Ajv instance of `dialect` (for schemas that declare no `$id`, so compiles never collide). */
export function sharedAjv(dialect: Dialect): AjvCore {
  let ajv = shared.get(dialect);
  if (!ajv) {
    ajv = createAjv(dialect);
    shared.set(dialect, ajv);
  }
  return ajv;
}
