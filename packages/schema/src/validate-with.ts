import type { Ajv as AjvCore, ValidateFunction } from "ajv";
import { createAjv } from "./ajv.js";
import { issuesFromAjv, SCHEMA_VIOLATION } from "./ajv-issues.js";
import type { Issue } from "./issue.js";
import { thrownMessage } from "./issue.js";
import { compileWithMetaCheck } from "./meta-validators.js";

let ajv: AjvCore | undefined;
const cache = new WeakMap<object, ValidateFunction>();
const NO_ISSUES: Issue[] = [];
Object.freeze(NO_ISSUES);

/** Compiles one of our own contract schemas (TypeBox, JSON Schema 2020-12) once and caches the validator. */
export function compileContractSchema(schema: object): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    ajv ??= createAjv("2020-12");
    fn = compileWithMetaCheck(ajv, "2020-12", schema);
    cache.set(schema, fn);
  }
  return fn;
}

/** Validates `value` against a TypeBox contract schema (compiled once, cached); every error becomes an issue. */
export function validateWith(schema: object, value: unknown): Issue[] {
  const fn = compileContractSchema(schema);
  try {
    return fn(value) ? NO_ISSUES : issuesFromAjv(fn.errors);
  } catch (error) {
    return [{ code: SCHEMA_VIOLATION, message: `cannot be validated: ${thrownMessage(error)}`, path: "" }];
  } finally {
    // The cached function would otherwise keep the last error list alive.
    fn.errors = null;
  }
}
