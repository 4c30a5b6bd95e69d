/**
 * docs/api.md's examples are the files under docs/examples/ (type-checked with the tests by
 * tsconfig.test.json, against the package's own exports), shown in the doc word for word; here they
 * run: the scripts by being imported, the matcher example's tests by being registered below, the
 * jest example's on jest's `expect` (its types are checked from the packed package: consumer.test.ts).
 */
import { readFileSync, readdirSync } from "node:fs";
import { expect as jestExpect } from "expect";
import { afterEach, describe, expect, it, vi } from "vitest";
import "../../docs/examples/matcher.js";

const DOC = readFileSync("docs/api.md", "utf8");

/** The ```ts block after each `<!-- example: FILE -->` marker, by file. */
function docBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const [, file, code] of DOC.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```\n/g)) blocks.set(file!, code!);
  return blocks;
}

describe("docs/api.md", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows every example file as it is", () => {
    const files = readdirSync("docs/examples").map((name) => `docs/examples/${name}`);
    const blocks = docBlocks();
    expect([...blocks.keys()].sort()).toEqual(files.sort());
    for (const file of files) expect(blocks.get(file), file).toBe(readFileSync(file, "utf8"));
  });

  it.each(["analyze", "replay", "gate"])("docs/examples/%s.ts runs and says what its comments say", async (name) => {
    const said: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void said.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")));
    await import(`../../docs/examples/${name}.ts`);
    const source = readFileSync(`docs/examples/${name}.ts`, "utf8");
    // Each `console.log(…); // shown` comment is how the line it prints begins.
    const shown = [...source.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map(([, comment]) => comment!.split(/[…{]/)[0]!.trim());
    const logged = [...source.matchAll(/console\.log\(/g)].length;
    expect(said).toHaveLength(logged);
    for (const start of shown) expect(said.some((line) => line.startsWith(start) || line.includes(start)), start).toBe(true);
  });

  it("docs/examples/jest.ts passes on jest's expect (the package's looplens/jest, with jest's globals)", async () => {
    const tests: Array<[string, () => Promise<void>]> = [];
    const global = globalThis as { expect?: unknown; test?: unknown };
    const before = { expect: global.expect, test: global.test };
    Object.assign(global, { expect: jestExpect, test: (name: string, body: () => Promise<void>) => void tests.push([name, body]) });
    try {
      // Not a literal: tsconfig.test.json leaves this file out (it is typed for jest's globals).
      const name = "jest";
      await import(`../../docs/examples/${name}.ts`);
      expect(tests.map(([name]) => name)).toEqual(["the stuck fixture is blocked at call 20"]);
      for (const [, body] of tests) await body();
    } finally {
      Object.assign(global, before);
    }
  });
});
