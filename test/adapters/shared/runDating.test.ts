/** RunDating (shared/recordedTime.ts): each run is dated once, by the first time offered for it. */
import { describe, expect, it } from "vitest";
import { RunDating } from "../../../src/adapters/shared/recordedTime.js";

describe("RunDating", () => {
  it("puts the first time offered for a run on its next event, once", () => {
    const dating = new RunDating();
    expect(dating.stamp("a")).toBeUndefined(); // nothing offered yet
    dating.offer("a", undefined);
    dating.offer("a", "t1");
    dating.offer("a", "t2"); // a time is waiting already: the first counts
    expect(dating.stamp("a")).toBe("t1");
    dating.offer("a", "t3"); // dated: later lines change nothing
    expect(dating.stamp("a")).toBeUndefined();
  });

  it("never gives a run the time offered for another", () => {
    const dating = new RunDating();
    dating.offer("a", "ta");
    expect(dating.stamp("b")).toBeUndefined();
    dating.offer("b", "tb");
    expect(dating.stamp("a")).toBeUndefined(); // a's time was for a run that went undated
    expect(dating.stamp("b")).toBe("tb");
  });
});
