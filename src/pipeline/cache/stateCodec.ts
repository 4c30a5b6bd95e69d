/**
 * Working state of a replay (objects of stateful classes, maps, sets, shared references, cycles) to
 * bytes and back, so that a replay can go on later where it stopped: the resume of a grown file
 * (watch.md §2 "Growth") and what `watch` carries forward.
 *
 * Why a registry rather than `snapshot()`/`restore()` per class: `v8.serialize` already keeps shared
 * references, cycles, maps, sets and typed arrays, and loses only two things, which are put back
 * here: an object's class (its prototype: registered classes are revived by name) and what belongs
 * to the process rather than to the state (functions such as the config resolver, and objects such
 * as a resolved config or a profile's hashing: each is *bound*, given a name on encoding, and is the
 * value of that name now on decoding). A class that gains a field needs no change here; a class
 * not registered, a function not bound or anything else v8 cannot carry makes the state unsavable
 * (`UnsavableState`), and the caller then keeps no state and later reads the file in full.
 */
import { deserialize, serialize } from "node:v8";
import { calledMethod, laterMethodCallback } from "../../adapters/shared/methodCallback.js";

/** Thrown when the state holds something this codec cannot carry: the caller saves no state. */
export class UnsavableState extends Error {}

/** The classes whose objects a state may hold, by a stable name (not `constructor.name`: minifiers and subclasses). */
export type StateClasses = Readonly<Record<string, abstract new (...args: never[]) => unknown>>;

// Keys no input gives an object (a NUL first): an object that has one anyway is unsavable, never misread.
const CLASS = "\u0000class";
const FIELDS = "\u0000fields";
const BOUND = "\u0000bound";
const FROZEN = "\u0000frozen";
const METHOD = "\u0000method";

function isPlain(prototype: unknown): boolean {
  return prototype === Object.prototype || prototype === null;
}

/** Objects v8 carries whole, prototype included, and that hold no references of ours. */
function isLeaf(value: object): boolean {
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date || value instanceof RegExp;
}

/** A new map or set of `each` of the items of `value` (noted in `done` first: it may hold itself). */
function collection(value: Map<unknown, unknown> | Set<unknown>, done: Map<object, unknown>, each: (item: unknown) => unknown): object {
  if (value instanceof Set) {
    const out = new Set<unknown>();
    done.set(value, out);
    for (const item of value) out.add(each(item));
    return out;
  }
  const out = new Map<unknown, unknown>();
  done.set(value, out);
  for (const [key, item] of value) out.set(each(key), each(item));
  return out;
}

/**
 * `root` as bytes. `bound` names the process's values the state may reference: every function (one
 * not in it makes the state unsavable), and objects to be carried by name; `classes` the classes
 * whose objects the state may hold.
 */
export function encodeState(root: unknown, classes: StateClasses, bound: ReadonlyMap<unknown, string>): Buffer {
  const names = new Map<object, string>();
  for (const [name, type] of Object.entries(classes)) names.set(type.prototype as object, name);
  const done = new Map<object, unknown>();
  const copy = (value: unknown): unknown => {
    if (typeof value === "function" && !bound.has(value)) {
      // A callback calling a method of an object of the state (methodCallback.ts): carried as the object and the method's name.
      const called = calledMethod(value);
      if (called === undefined) throw new UnsavableState(`function ${value.name || "(anonymous)"} is not bound`);
      const seen = done.get(value);
      if (seen !== undefined) return seen;
      const out = { [METHOD]: called.method, [FIELDS]: undefined as unknown };
      done.set(value, out);
      out[FIELDS] = copy(called.self);
      return out;
    }
    if (typeof value === "function" || (typeof value === "object" && value !== null && bound.has(value))) {
      const name = bound.get(value);
      if (name === undefined) throw new UnsavableState(`function ${(value as Function).name || "(anonymous)"} is not bound`);
      return { [BOUND]: name };
    }
    if (typeof value !== "object" || value === null) {
      if (typeof value === "symbol") throw new UnsavableState("a symbol");
      return value;
    }
    // A leaf is handed to v8 as it is (v8 keeps its identity where it is shared).
    if (isLeaf(value)) return value;
    const seen = done.get(value);
    if (seen !== undefined) return seen;
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) throw new UnsavableState("an array of a class");
      // A frozen array is a shared constant compared by identity (core/none.ts `NONE`): only bound ones are carried.
      if (Object.isFrozen(value)) throw new UnsavableState("a frozen array not bound");
      const out: unknown[] = new Array(value.length);
      done.set(value, out);
      for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
      return out;
    }
    if (value instanceof Map || value instanceof Set) return collection(value, done, copy);
    const prototype = Object.getPrototypeOf(value) as object | null;
    const name = isPlain(prototype) ? undefined : names.get(prototype!);
    if (!isPlain(prototype) && name === undefined) throw new UnsavableState(`an object of class ${(value as object).constructor?.name ?? "?"} not registered`);
    const fields: Record<string, unknown> = {};
    // A frozen object (a constant such as a default choice) comes back frozen: what could not change still cannot.
    const frozen = name === undefined && Object.isFrozen(value);
    const out = name !== undefined ? { [CLASS]: name, [FIELDS]: fields } : frozen ? { [FROZEN]: true, [FIELDS]: fields } : fields;
    done.set(value, out);
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === "symbol") throw new UnsavableState("a symbol key");
      if (key === CLASS || key === FIELDS || key === BOUND || key === FROZEN || key === METHOD) throw new UnsavableState("an object with a reserved key");
      const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
      if (!("value" in descriptor) || !descriptor.enumerable) throw new UnsavableState(`an accessor or hidden field ${key}`);
      fields[key] = copy(descriptor.value);
    }
    return out;
  };
  try {
    return serialize(copy(root));
  } catch (error) {
    if (error instanceof UnsavableState) throw error;
    throw new UnsavableState(`not serialisable: ${(error as Error).message}`);
  }
}

/**
 * The state `encodeState` made, with its objects' classes and its bound values put back (`bound`:
 * the value of each name now). Throws on bytes it did not make or a name it does not know.
 */
export function decodeState(bytes: Uint8Array, classes: StateClasses, bound: ReadonlyMap<string, unknown>): unknown {
  const done = new Map<object, unknown>();
  const revive = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (isLeaf(value)) return value;
    const seen = done.get(value);
    if (seen !== undefined) return seen;
    if (Array.isArray(value)) {
      done.set(value, value);
      for (let i = 0; i < value.length; i++) value[i] = revive(value[i]);
      return value;
    }
    if (value instanceof Map || value instanceof Set) return collection(value, done, revive);
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, BOUND)) {
      const now = bound.get(record[BOUND] as string);
      if (now === undefined) throw new Error(`nothing bound to ${String(record[BOUND])}`);
      done.set(value, now);
      return now;
    }
    if (Object.hasOwn(record, METHOD)) {
      // The callback is made before its object is revived: the object may hold it.
      const later = laterMethodCallback(record[METHOD] as string);
      done.set(value, later.callback);
      const self = revive(record[FIELDS]);
      if (typeof self !== "object" || self === null) throw new Error("a method callback without its object");
      later.bind(self);
      return later.callback;
    }
    if (Object.hasOwn(record, CLASS)) {
      const type = classes[record[CLASS] as string];
      if (type === undefined) throw new Error(`no class named ${String(record[CLASS])}`);
      const out = Object.create(type.prototype as object) as Record<string, unknown>;
      done.set(value, out);
      const fields = record[FIELDS] as Record<string, unknown>;
      for (const key of Object.keys(fields)) out[key] = revive(fields[key]);
      return out;
    }
    if (Object.hasOwn(record, FROZEN)) {
      const fields = record[FIELDS] as Record<string, unknown>;
      done.set(value, fields);
      for (const key of Object.keys(fields)) fields[key] = revive(fields[key]);
      return Object.freeze(fields);
    }
    done.set(value, value);
    for (const key of Object.keys(record)) record[key] = revive(record[key]);
    return value;
  };
  return revive(deserialize(bytes));
}
