/** Result linking with counts: exactly the naive newest-first scan, without scanning for orphans. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PendingCalls, type PendingCall } from "../../src/core/pendingCalls.js";

/** The spec's rule as a plain scan (what PendingCalls replaced): by id only, else by tool. */
function naiveTake(pending: PendingCall[], id: string | undefined, tool: string | undefined): PendingCall | undefined {
  const matches = id !== undefined ? (c: PendingCall) => c.id === id : (c: PendingCall) => c.tool === tool;
  for (let i = pending.length - 1; i >= 0; i--) if (matches(pending[i]!)) return pending.splice(i, 1)[0];
  return undefined;
}

const ids = fc.option(fc.constantFrom("a", "b", "c", "__proto__"), { nil: undefined });
const tools = fc.constantFrom("read", "exec", "constructor");
const op = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), id: ids, tool: tools }),
  fc.record({ kind: fc.constant("take" as const), id: ids, tool: fc.option(tools, { nil: undefined }) }),
);

describe("PendingCalls", () => {
  it("takes exactly what the newest-first scan takes, and keeps at most `limit` calls", () => {
    fc.assert(
      // indexAbove 0..10: counts kept from the first call, or made and dropped as the list grows and shrinks.
      fc.property(fc.array(op, { maxLength: 80 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 10 }), (ops, limit, indexAbove) => {
        const pending = new PendingCalls(limit, indexAbove);
        const model: PendingCall[] = [];
        let n = 0;
        for (const o of ops) {
          if (o.kind === "add") {
            const call = { id: o.id, tool: o.tool, args: undefined, argsHash: `${o.tool}:h`, call: ++n };
            pending.add(call);
            model.push(call);
            if (model.length > limit) model.shift();
          } else {
            expect(pending.take(o.id, o.tool)?.call).toBe(naiveTake(model, o.id, o.tool)?.call);
          }
          expect(pending.size).toBe(model.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a million orphan results against 4096 pending calls cost no scan each", () => {
    const pending = new PendingCalls(4096);
    for (let i = 0; i < 4096; i++) pending.add({ id: `c${i}`, tool: "read", args: undefined, argsHash: "read:h", call: i + 1 });
    const start = performance.now();
    let taken = 0;
    for (let i = 0; i < 1_000_000; i++) if (pending.take(`zz${i}`, "write") !== undefined) taken++;
    expect(taken).toBe(0);
    // A scan each would be 4·10⁹ comparisons (seconds); lookups are well under a second even loaded.
    expect(performance.now() - start).toBeLessThan(3000);
    expect(pending.size).toBe(4096);
  });
});
