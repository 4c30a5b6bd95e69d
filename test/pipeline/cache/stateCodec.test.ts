import { describe, expect, it } from "vitest";
import { calledMethod, methodCallback } from "../../../src/adapters/shared/methodCallback.js";
import { decodeState, encodeState, UnsavableState } from "../../../src/pipeline/cache/stateCodec.js";

class Counter {
  count = 0;
  constructor(readonly owner: Box | undefined) {}
  add(): number {
    return ++this.count;
  }
}

class Box {
  items = new Map<string, Counter>();
  seen = new Set<Counter>();
  hashes = new Uint32Array([1, 2, 3]);
  callback: (() => string) | undefined;
  self: Box | undefined;
}

const classes = { Counter, Box };

function sample(callback: () => string) {
  const box = new Box();
  const shared = new Counter(box);
  shared.add();
  box.items.set("a", shared).set("b", shared);
  box.seen.add(shared);
  box.callback = callback;
  box.self = box;
  return { box, list: [shared, { plain: true, undefinedField: undefined }], big: 12n };
}

describe("state codec", () => {
  it("carries a method callback as its object and method: called on the restored object, the same function wherever shared", () => {
    const box = new Box();
    const counter = new Counter(box);
    box.items.set("a", counter);
    // The object holds its own callback (a cycle through the function), and another object shares it.
    const add = methodCallback(counter, "add");
    box.callback = add as unknown as () => string;
    const state = { box, again: add };
    const restored = decodeState(encodeState(state, classes, new Map()), classes, new Map()) as typeof state;
    const restoredCounter = restored.box.items.get("a")!;
    expect(restored.again).toBe(restored.box.callback);
    expect(restored.again()).toBe(1);
    expect(restoredCounter.count).toBe(1);
    expect(counter.count).toBe(0);
    expect(calledMethod(restored.again)?.self).toBe(restoredCounter);
    // Saved again, it is still a method callback.
    const twice = decodeState(encodeState(restored, classes, new Map()), classes, new Map()) as typeof state;
    expect(twice.again()).toBe(2);
  });

  it("gives back classes, shared references, cycles, collections and named functions", () => {
    const before = () => "before";
    const after = () => "after";
    const bytes = encodeState(sample(before), classes, new Map([[before, "callback"]]));
    const state = decodeState(bytes, classes, new Map([["callback", after]])) as ReturnType<typeof sample>;
    const { box, list } = state;
    expect(box).toBeInstanceOf(Box);
    expect(box.self).toBe(box);
    const shared = box.items.get("a")!;
    expect(shared).toBeInstanceOf(Counter);
    expect(box.items.get("b")).toBe(shared);
    expect(list[0]).toBe(shared);
    expect(box.seen.has(shared)).toBe(true);
    expect(shared.owner).toBe(box);
    // A method works on the revived object, and the function is today's, not the saved one's.
    expect(shared.add()).toBe(2);
    expect(box.callback!()).toBe("after");
    expect([...box.hashes]).toEqual([1, 2, 3]);
    expect(list[1]).toEqual({ plain: true, undefinedField: undefined });
    expect(Object.hasOwn(list[1] as object, "undefinedField")).toBe(true);
    expect(state.big).toBe(12n);
  });

  it("carries a bound object by name: the decoded state holds the object bound to that name now", () => {
    const f = () => "";
    const configBefore = { limit: 1 };
    const configNow = { limit: 1 };
    const bytes = encodeState({ a: configBefore, b: [configBefore], f }, classes, new Map<unknown, string>([[configBefore, "config"], [f, "f"]]));
    const state = decodeState(bytes, classes, new Map<string, unknown>([["config", configNow], ["f", f]])) as { a: object; b: object[] };
    expect(state.a).toBe(configNow);
    expect(state.b[0]).toBe(configNow);
  });

  it("refuses what it cannot carry: an unnamed function, a class not registered, a reserved key", () => {
    expect(() => encodeState({ f: () => 1 }, classes, new Map())).toThrow(UnsavableState);
    class Other {}
    expect(() => encodeState([new Other()], classes, new Map())).toThrow(UnsavableState);
    expect(() => encodeState({ "\u0000class": "Box" }, classes, new Map())).toThrow(UnsavableState);
    expect(() => encodeState({ get x() { return 1; } }, classes, new Map())).toThrow(UnsavableState);
    expect(() => encodeState(new WeakMap(), classes, new Map())).toThrow(UnsavableState);
  });

  it("carries a frozen object frozen, and refuses a frozen array that is not bound (a constant compared by identity)", () => {
    const state = decodeState(encodeState({ choice: Object.freeze({ profile: "x" }) }, classes, new Map()), classes, new Map()) as { choice: object };
    expect(state.choice).toEqual({ profile: "x" });
    expect(Object.isFrozen(state.choice)).toBe(true);
    const NONE = Object.freeze([]);
    expect(() => encodeState({ a: NONE }, classes, new Map())).toThrow(UnsavableState);
    const restored = decodeState(encodeState({ a: NONE, b: NONE }, classes, new Map([[NONE, "NONE"]])), classes, new Map([["NONE", NONE]])) as { a: unknown; b: unknown };
    expect(restored.a).toBe(NONE);
    expect(restored.b).toBe(NONE);
  });

  it("refuses to decode a class or function name it does not know", () => {
    const f = () => "";
    const bytes = encodeState(sample(f), classes, new Map([[f, "callback"]]));
    expect(() => decodeState(bytes, { Box }, new Map([["callback", f]]))).toThrow(/no class named Counter/);
    expect(() => decodeState(bytes, classes, new Map())).toThrow(/nothing bound to callback/);
  });
});
