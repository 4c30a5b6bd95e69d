/**
 * `looplens/jest` against jest's own `expect` (the `expect` package: the object jest puts on the
 * global, with its `extend`, `this.isNot`, async matchers and `.not`), put where jest puts it. Its
 * types against @types/jest are checked in test/api/consumer.test.ts, from the packed package.
 */
import { expect as jestExpect } from "expect";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { failureMessage as failure } from "./helpers/failure.js";
import { analyze, format } from "../src/index.js";

const STUCK = "fixtures/ping-pong.jsonl"; // ping_pong warnings from call 10, a block at call 20
const HEALTHY = "fixtures/healthy.jsonl";

type LoopMatchers = jest.Matchers<void>;
/** jest's expect, typed with looplens' matchers only (this project's tests do not load @types/jest). */
const jx = (received: unknown) => jestExpect(received) as unknown as LoopMatchers & { not: LoopMatchers };

describe("looplens/jest", () => {
  const global = globalThis as { expect?: unknown };
  const before = global.expect;

  beforeAll(async () => {
    global.expect = jestExpect;
    await import("../src/jest.js");
  });
  afterAll(() => {
    global.expect = before;
  });

  it("registers the matchers on jest's expect: pass, fail with the findings table, .not", async () => {
    await jx(HEALTHY).toHaveNoLoopFindings();
    await jx(STUCK).toHaveNoLoopFindings({ atOrAbove: "abort" });
    await jx(STUCK).not.toHaveNoLoopFindings();
    const message = await failure(jx(STUCK).toHaveNoLoopFindings({ atOrAbove: "block" }));
    expect(message).toContain(`expected "${STUCK}" to have no loop findings at or above block, but it has 1:`);
    expect(message).toContain(format(await analyze(STUCK), "table", { width: 120 }));
  });

  it("toHaveLoopFinding matches on detector, level and call; .not says what it did not expect", async () => {
    await jx(STUCK).toHaveLoopFinding({ detector: "ping_pong", level: "block", call: 20 });
    await jx(STUCK).not.toHaveLoopFinding({ detector: "generic_repeat" });
    const message = await failure(jx(STUCK).not.toHaveLoopFinding({ detector: "ping_pong", call: 20 }));
    expect(message).toContain(`expected "${STUCK}" not to have a loop finding {"detector":"ping_pong","call":20}, but it has 1 such`);
  });

  it("without a global jest expect, importing it says what to do instead", async () => {
    const saved = global.expect;
    global.expect = undefined;
    try {
      // The module run again, with no global expect.
      vi.resetModules();
      await expect(import("../src/jest.js")).rejects.toThrow(/no global jest expect to extend.*expect\.extend\(loopMatchers\)/);
    } finally {
      global.expect = saved;
    }
  });
});
