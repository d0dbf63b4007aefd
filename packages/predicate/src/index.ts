export {
  type BindPredicateOptions,
  bindPredicate,
  DEFAULT_CONDITION_SOURCES,
  type PredicateBindResult,
  safeBindPredicate,
} from "./bind-predicate.js";
export {
  type CompilePredicateOptions,
  compilePredicate,
  type Predicate,
  type PredicateCompileResult,
  safeCompilePredicate,
} from "./compile-predicate.js";
export { type CompiledGlob, type CompileGlobOptions, compileGlob, isValidGlob, matchGlob } from "./glob.js";
export { globCovers } from "./glob-covers.js";
export {
  MAX_ANY_BYTES,
  MAX_ANY_SEGMENTS,
  MAX_BIND_DEPTH,
  MAX_GLOB_BYTES,
  MAX_MERGE_GROUP,
  MAX_REGEX_BYTES,
  PREDICATE_INVALID,
  PREDICATE_UNBOUND,
} from "./limits.js";
export { matchPredicate, type PredicateInput } from "./match-predicate.js";
export { ANY_SEGMENT_PATTERN, type PathSegment } from "./path.js";
export { type PredicateJson, PredicateSchema, type PredicateSource } from "./predicate-schema.js";
export { type CompilePredicateSetOptions, compilePredicateSet, type PredicateSet } from "./predicate-set.js";
export { type CompiledRegex, type RegexEngine, re2jsEngine } from "./regex-engine.js";
