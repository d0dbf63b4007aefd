import type { Ajv as AjvCore, ErrorObject, ValidateFunction } from "ajv";
import type { Dialect } from "./ajv.js";
import validate201909 from "./meta/2019-09.js";
import validate202012 from "./meta/2020-12.js";
import validateDraft07 from "./meta/draft-07.js";

const META: Readonly<Record<Dialect, ValidateFunction>> = {
  "draft-07": validateDraft07 as ValidateFunction,
  "2019-09": validate201909 as ValidateFunction,
  "2020-12": validate202012 as ValidateFunction,
};

/**
 * Compiles `schema` with `ajv` after checking it against its dialect's meta-schema, exactly as Ajv's own
 * `validateSchema` would (same validator code, generated at build time; same `schema is invalid: ...` error).
 */
export function compileWithMetaCheck(ajv: AjvCore, dialect: Dialect, schema: object): ValidateFunction {
  const meta = META[dialect];
  if (!meta(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(meta.errors)}`);
  return ajv.compile(schema);
}

/** The meta-schema errors of `schema` in `dialect` (all of them), or an empty list when it is a valid schema. */
export function metaSchemaErrors(dialect: Dialect, schema: object): ErrorObject[] {
  const meta = META[dialect];
  try {
    return meta(schema) ? [] : [...(meta.errors ?? [])];
  } finally {
    meta.errors = null;
  }
}
