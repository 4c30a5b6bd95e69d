/**
 * A callback that calls a method of an object, and says which: what a reader's working state hands
 * its parts instead of a closure (a run writer's owner, a sequencer's output), so that the state can
 * be saved and restored (pipeline/cache/stateCodec.ts carries such a callback as its object and
 * method name; a closure would make the state unsavable).
 */
type Method = (...args: never[]) => unknown;
type MethodNames<T> = { [K in keyof T]: T[K] extends Method ? K : never }[keyof T] & string;

const CALLED = new WeakMap<Function, { readonly self: object; readonly method: string }>();

/** A function calling `self[method]` with its arguments. */
export function methodCallback<T extends object, K extends MethodNames<T>>(self: T, method: K): T[K] {
  const call = (...args: unknown[]): unknown => (self[method] as (...args: unknown[]) => unknown).apply(self, args);
  CALLED.set(call, { self, method });
  return call as T[K];
}

/** The object and method a `methodCallback` calls; undefined for any other function. */
export function calledMethod(callback: Function): { readonly self: object; readonly method: string } | undefined {
  return CALLED.get(callback);
}

/**
 * A `methodCallback` whose object is given later (`bind`): a state being restored makes the callback
 * before the object it calls, which may hold the callback itself.
 */
export function laterMethodCallback(method: string): { readonly callback: Function; bind(self: object): void } {
  let target: Record<string, (...args: unknown[]) => unknown> | undefined;
  const callback = (...args: unknown[]): unknown => target![method]!.apply(target, args);
  return {
    callback,
    bind(self) {
      target = self as typeof target;
      CALLED.set(callback, { self, method });
    },
  };
}
