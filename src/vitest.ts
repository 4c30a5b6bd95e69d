/**
 * `import "looplens/vitest"`: registers the loop matchers on vitest's `expect` and types them on
 * its `Assertion` (docs/api.md); `looplens/jest` (jest.ts) does the same for jest.
 */
import { expect } from "vitest";
import { loopMatchers, type LoopFindingQuery, type NoLoopFindingsOptions } from "./api/matchers.js";
import type { AnalyzeOptions } from "./api/types.js";

expect.extend(loopMatchers);

declare module "vitest" {
  interface Assertion<T = any> {
    /** No finding at or above `atOrAbove` (default warning) in what `analyze` reads from the received value. */
    toHaveNoLoopFindings(options?: NoLoopFindingsOptions): Promise<T>;
    /** Some finding matches the query (detector, level, call, tool, run). */
    toHaveLoopFinding(query: LoopFindingQuery, options?: AnalyzeOptions): Promise<T>;
  }
}

export { loopMatchers };
export type { LoopFindingQuery, NoLoopFindingsOptions };
