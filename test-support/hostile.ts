/**
 * Shared pieces of the adversarial suites of every package: a corpus of hostile values, a check that nothing
 * polluted the built-in prototypes, a deep-frozen check and a heap probe. (A private test-support module, never published:
 * packages reach it as `@raw/test-support`, an alias of vitest.shared.ts and each tsconfig.)
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect } from "vitest";

/** One hostile value: a name for the report and a factory (values are built fresh for every use). */
export interface HostileCase {
  readonly name: string;
  make(): unknown;
}

/** Nesting depth of the deep cases (the issue asks for 10,000 levels). */
export const DEEP_LEVELS = 10_000;

function deepObject(levels: number, key = "a"): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 0; i < levels; i++) {
    const next: Record<string, unknown> = {};
    node[key] = next;
    node = next;
  }
  node.path = "leaf";
  return root;
}

function deepArray(levels: number): unknown[] {
  const root: unknown[] = [];
  let node = root;
  for (let i = 0; i < levels; i++) {
    const next: unknown[] = [];
    node.push(next);
    node = next;
  }
  return root;
}

/**
 * Arguments-shaped hostile values (objects at the root, as a tool call's arguments are): deep nesting, huge
 * arrays, prototype-named keys, getters and `toJSON` tricks, cycles, BigInt, sparse arrays, lone surrogates, NUL
 * and control characters.
 */
export function hostileArguments(): HostileCase[] {
  return [
    { name: "deep object (10,000 levels)", make: () => deepObject(DEEP_LEVELS) },
    { name: "deep object under path (10,000 levels)", make: () => ({ path: deepObject(DEEP_LEVELS) }) },
    { name: "deep array (10,000 levels)", make: () => ({ paths: deepArray(DEEP_LEVELS) }) },
    {
      name: "deep JSON text parsed (10,000 levels)",
      make: () => JSON.parse(`{"path":"x","n":${"[".repeat(DEEP_LEVELS)}${"]".repeat(DEEP_LEVELS)}}`),
    },
    { name: "huge array of numbers (1,000,000)", make: () => ({ numbers: new Array(1_000_000).fill(7) }) },
    {
      name: "huge array of strings (200,000)",
      make: () => ({ paths: Array.from({ length: 200_000 }, (_, i) => `f${i}`) }),
    },
    { name: "huge string (8 MiB)", make: () => ({ path: "x".repeat(8 * 1024 * 1024) }) },
    {
      name: "many keys (100,000)",
      make: () => Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])),
    },
    {
      name: "__proto__ own key (JSON.parse)",
      make: () => JSON.parse('{"__proto__":{"polluted":"yes","path":"inherited"},"paths":["a"]}'),
    },
    {
      name: "nested __proto__ own keys",
      make: () => JSON.parse('{"paths":[{"__proto__":{"polluted":"yes"}}],"path":{"__proto__":{"x":1}}}'),
    },
    {
      name: "constructor.prototype keys",
      make: () => JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}},"paths":["a"]}'),
    },
    { name: "prototype key", make: () => ({ prototype: { polluted: "yes" }, path: "a" }) },
    {
      name: "Object.create(null) root",
      make: () => Object.assign(Object.create(null) as object, { path: "a", paths: ["b"] }),
    },
    {
      name: "throwing getter",
      make: () =>
        Object.defineProperty({ paths: ["a"] }, "path", {
          enumerable: true,
          get() {
            throw new Error("getter boom");
          },
        }),
    },
    {
      name: "getter throwing a non-Error",
      make: () =>
        Object.defineProperty({}, "paths", {
          enumerable: true,
          get() {
            throw Symbol("sym");
          },
        }),
    },
    {
      name: "getter that changes on every read",
      make: () => {
        let n = 0;
        return Object.defineProperty({}, "path", {
          enumerable: true,
          get() {
            n++;
            return n % 2 ? "a" : 42;
          },
        });
      },
    },
    { name: "own toJSON function", make: () => ({ path: "a", toJSON: () => ({ path: "/etc/passwd" }) }) },
    {
      name: "throwing toJSON",
      make: () => ({
        path: "a",
        toJSON() {
          throw new Error("toJSON boom");
        },
      }),
    },
    {
      name: "inherited toJSON (class instance)",
      make: () => {
        class Sneaky {
          path = "a";
          toJSON() {
            return { path: "/etc/shadow" };
          }
        }
        return new Sneaky();
      },
    },
    {
      name: "cyclic object",
      make: () => {
        const value: Record<string, unknown> = { path: "a", paths: ["b"] };
        value.self = value;
        return value;
      },
    },
    {
      name: "cyclic array",
      make: () => {
        const list: unknown[] = ["a"];
        list.push(list);
        return { paths: list };
      },
    },
    { name: "BigInt value", make: () => ({ path: "a", size: 10n ** 30n }) },
    { name: "BigInt in array", make: () => ({ paths: [1n, 2n] }) },
    // biome-ignore lint/suspicious/noSparseArray: a sparse array is the point of this case.
    { name: "sparse array", make: () => ({ paths: ["a", , "c"] }) },
    { name: "holey array (1,000 holes)", make: () => ({ paths: new Array(1000) }) },
    {
      name: "array with extra properties",
      make: () => ({ paths: Object.assign(["a"], { extra: "x", "-1": "y" }) }),
    },
    { name: "lone high surrogate", make: () => ({ path: "a\ud800b", paths: ["\ud800"] }) },
    { name: "lone low surrogate", make: () => ({ path: "\udfffz", paths: ["\udc00"] }) },
    { name: "NUL characters", make: () => ({ path: "a\u0000b", paths: ["\u0000"] }) },
    {
      name: "control characters",
      make: () => ({ path: "\u0001\u001b[31m\r\n\u007f\u2028\u2029", paths: ["\b\f\v"] }),
    },
    { name: "symbol value", make: () => ({ path: Symbol("x") }) },
    { name: "symbol key", make: () => ({ [Symbol("x")]: "y", path: "a" }) },
    { name: "function value", make: () => ({ path: () => "a" }) },
    { name: "Date, Map, RegExp", make: () => ({ path: new Date(0), m: new Map([[1, 2]]), r: /a+$/ }) },
    { name: "typed array", make: () => ({ paths: new Uint8Array(16) }) },
    {
      name: "Proxy that throws on every trap",
      make: () =>
        new Proxy(
          {},
          {
            get() {
              throw new Error("trap");
            },
            ownKeys() {
              throw new Error("trap");
            },
            getPrototypeOf() {
              throw new Error("trap");
            },
            has() {
              throw new Error("trap");
            },
            getOwnPropertyDescriptor() {
              throw new Error("trap");
            },
          },
        ),
    },
    {
      name: "revoked Proxy",
      make: () => {
        const { proxy, revoke } = Proxy.revocable({ path: "a" }, {});
        revoke();
        return proxy;
      },
    },
    { name: "non-object: null", make: () => null },
    { name: "non-object: string", make: () => "rm -rf /" },
    { name: "non-object: array", make: () => ["a"] },
    { name: "non-object: undefined", make: () => undefined },
    { name: "non-object: NaN", make: () => Number.NaN },
  ];
}

const PROTOTYPES: ReadonlyArray<[string, object]> = [
  ["Object.prototype", Object.prototype],
  ["Array.prototype", Array.prototype],
  ["Function.prototype", Function.prototype],
  ["String.prototype", String.prototype],
  ["Promise.prototype", Promise.prototype],
];

function ownKeysOf(target: object): string[] {
  return Reflect.ownKeys(target).map(String).sort();
}

const baseline = new Map(PROTOTYPES.map(([name, target]) => [name, ownKeysOf(target)]));

/** Fails when any built-in prototype gained or lost a key, or a fresh object inherits a `polluted` field. */
export function expectNoPollution(label: string): void {
  for (const [name, target] of PROTOTYPES) {
    expect(ownKeysOf(target), `${label}: ${name}`).toEqual(baseline.get(name));
  }
  const probe: Record<string, unknown> = {};
  expect(probe.polluted, `${label}: ({}).polluted`).toBeUndefined();
  expect(Object.getPrototypeOf(probe), label).toBe(Object.prototype);
}

/** True when `value` and everything reachable from it through own data properties is frozen. */
export function isDeepFrozen(value: unknown): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    if (!Object.isFrozen(current)) return false;
    for (const key of Reflect.ownKeys(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (descriptor && "value" in descriptor) stack.push(descriptor.value);
    }
  }
  return true;
}

let collect: (() => void) | undefined;

/** A full garbage collection (the flag is set at run time, so no runner option is needed). */
export function fullGc(): void {
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}

/** Heap plus external memory (Buffers) in bytes, after a full collection. */
export function retainedBytes(): number {
  fullGc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

/** Mebibytes, for bounds. */
export const MiB = 1024 * 1024;
