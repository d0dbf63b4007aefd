// Loaded with `node --import`: makes `better-sqlite3` unresolvable in this process, as on a machine where the
// optional peer is not installed.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === "better-sqlite3" || specifier.startsWith("better-sqlite3/")) {
    const error = new Error("Cannot find package 'better-sqlite3'");
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}`)}`,
);
