/** Freezes `value` and every object reachable from it (cycles are safe); returns `value`. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  const stack: object[] = [value as object];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const current = stack.pop() as object;
    if (seen.has(current)) continue;
    seen.add(current);
    for (const key of Reflect.ownKeys(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      const child = descriptor && "value" in descriptor ? descriptor.value : undefined;
      if (typeof child === "object" && child !== null && !seen.has(child)) stack.push(child);
    }
    Object.freeze(current);
  }
  return value;
}
