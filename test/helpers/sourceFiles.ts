/** The TypeScript sources below a folder of src, for the tests that check how src is built. */
import { readdirSync } from "node:fs";
import { join } from "node:path";

export function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesUnder(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}
