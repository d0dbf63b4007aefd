/**
 * `@raw/validate/prestart`: starts the child process that imports tool entries before anything else loads, so that
 * it boots while the caller loads the validators (the `raw` binary does this for `raw validate`). A small entry with
 * no other import; the run of `validatePaths` in the same folder takes the started child.
 */

export { childScriptPath, useChildScript } from "./child-path.js";
export { prestartValidateChild, stopPrestartedChild } from "./validate-prestart.js";
