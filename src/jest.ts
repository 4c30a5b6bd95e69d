/**
 * `import "looplens/jest"`: registers the loop matchers on jest's global `expect` and types them on
 * jest's `jest.Matchers` (@types/jest), as `looplens/vitest` does for vitest (docs/api.md). looplens
 * is ESM only: jest loads it in its ESM mode (`node --experimental-vm-modules`). This module does
 * not import jest: it extends the `expect` jest puts on the global object, and says so plainly when
 * there is none (`injectGlobals: false`: then `expect.extend(loopMatchers)` with @jest/globals' expect).
 */
import { loopMatchers, type LoopFindingQuery, type NoLoopFindingsOptions } from "./api/matchers.js";
import type { AnalyzeOptions } from "./api/types.js";

const globalExpect = (globalThis as { expect?: { extend?: (matchers: typeof loopMatchers) => void } }).expect;
if (typeof globalExpect?.extend !== "function") {
  throw new Error(
    'looplens/jest: there is no global jest expect to extend (a jest test file with injectGlobals off?); use import { expect } from "@jest/globals"; import { loopMatchers } from "looplens"; expect.extend(loopMatchers);',
  );
}
globalExpect.extend(loopMatchers);

declare global {
  // jest's own global namespace (@types/jest): its `Matchers` interface is merged with these two.
  namespace jest {
    // The type parameters must be @types/jest's, for the declarations to merge.
    interface Matchers<R, T = {}> {
      /** No finding at or above `atOrAbove` (default warning) in what `analyze` reads from the received value. */
      toHaveNoLoopFindings(options?: NoLoopFindingsOptions): Promise<R>;
      /** Some finding matches the query (detector, level, call, tool, run). */
      toHaveLoopFinding(query: LoopFindingQuery, options?: AnalyzeOptions): Promise<R>;
    }
  }
}

export { loopMatchers };
export type { LoopFindingQuery, NoLoopFindingsOptions };
