/** Finding fixture files and sampling their first lines as format detection does, for the OpenHands sniffing tests. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The files under `dir` whose names `keep` accepts, at any depth. */
export function walk(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** The first meaningful lines of a file as adapterFor samples them (JSON when they parse). */
export function samplesOf(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, 50)
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return line;
      }
    });
}
