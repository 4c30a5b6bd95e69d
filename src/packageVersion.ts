/**
 * looplens's version, as package.json says. A module of its own: the library (api/analyze.ts) asks
 * it too, and importing it from cli.ts took every command into the library's bundle.
 */
import { readFileSync } from "node:fs";

/** The version in package.json: one level up from dist/packageVersion.js, two from a chunk of the bundle in dist/bundle/. */
export function packageVersion(): string {
  for (const path of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "looplens" && pkg.version !== undefined) return pkg.version;
    } catch {
      // not this one
    }
  }
  return "0.0.0";
}
