/** A JSON object (not null, not an array): the runtime's `isPlainObject` for parsed input. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own property read that never walks the prototype chain (`__proto__`, `constructor` are data here). */
export function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
