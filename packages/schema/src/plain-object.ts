/**
 * True for a plain object: not null, not an array, and created by `{}` or `Object.create(null)` — in this realm or
 * in another one (a `vm` context; Jest's test environment, whose `structuredClone` builds objects with the host
 * realm's `Object.prototype`).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || isObjectPrototypeOfAnotherRealm(proto);
}

/** The text every realm's built-in `Object` constructor prints; user code cannot produce it. */
const NATIVE_OBJECT_SOURCE = Function.prototype.toString.call(Object);

/**
 * True when `proto` is the `Object.prototype` of some realm: it has no prototype of its own and its own
 * `constructor` data property is a built-in `Object` whose `prototype` is `proto`. No getter is invoked.
 */
function isObjectPrototypeOfAnotherRealm(proto: object): boolean {
  if (Object.getPrototypeOf(proto) !== null) return false;
  const ctor: unknown = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
  if (typeof ctor !== "function") return false;
  if (Object.getOwnPropertyDescriptor(ctor, "prototype")?.value !== proto) return false;
  try {
    return Function.prototype.toString.call(ctor) === NATIVE_OBJECT_SOURCE;
  } catch {
    return false;
  }
}

/**
 * True for any object that is not an array, whatever its prototype (a class instance, `Object.create(proto)`, an
 * object of another realm). Parsers that decide presence with own-property semantics (a manifest, a rule, a `when`
 * predicate) accept such an object and read only its own properties; only null, arrays and primitives are "not an
 * object" for them. No property or getter is read.
 */
export function isObjectRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
