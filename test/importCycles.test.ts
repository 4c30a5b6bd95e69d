/**
 * No import cycle in src, type imports included (issue 35): a cycle of modules is one concept cut
 * in two, and a type import is a dependency too (it says which module owns the concept).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { sourcesUnder } from "./helpers/sourceFiles.js";

/** Every relative module a source names: `import`, `import type`, `export … from`, `import("…")`. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)"(\.{1,2}\/[^"]+)"/gm;

/** The modules a source names, as paths of their .ts files (relative to the source's folder). */
function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((match) => match[1]!.replace(/\.js$/, ".ts"));
}

/** The modules of src each module imports (value and type imports alike). */
function importGraph(src: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourcesUnder(src)) {
    const targets = new Set<string>();
    for (const name of importsOf(readFileSync(file, "utf8"))) {
      const target = resolve(dirname(file), name);
      if (existsSync(target)) targets.add(relative(src, target));
    }
    graph.set(relative(src, file), [...targets].sort());
  }
  return graph;
}

/** The strongly connected components of more than one module, or of one importing itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("import cycles", () => {
  it("no module of src reaches itself through its imports, type imports included", () => {
    const graph = importGraph(resolve("src"));
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it("reads every kind of import, and finds a cycle however long", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      "import {",
      "  type C,",
      '} from "./c.js";',
      'export type { D } from "./d.js";',
      'const e = await import("./e.js");',
      'import "./f.js";',
      'import { readFileSync } from "node:fs";',
    ].join("\n");
    expect(importsOf(text)).toEqual(["./a.ts", "../b.ts", "./c.ts", "./d.ts", "./e.ts", "./f.ts"]);
    expect(cycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]]);
    expect(cycles(new Map([["a", ["a"]], ["b", []]]))).toEqual([["a"]]);
    expect(cycles(new Map([["a", ["b"]], ["b", []]]))).toEqual([]);
  });
});
