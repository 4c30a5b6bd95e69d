/**
 * The README and docs/ as a newcomer meets them: every example output is what its command prints
 * today (scripts/docOutputs.mjs makes them; `node scripts/docOutputs.mjs` after a change of output),
 * every link leads to a file and heading that exist, nothing points outside the repository, and the
 * README fits on a screen's worth of reading (15 KB).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { checkOutputs, documents } from "../../scripts/docOutputs.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const text = read(file).replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** Every markdown link of a document outside code blocks: its target as written. */
function links(file: string): string[] {
  const text = read(file).replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe("README and docs/", () => {
  it("show what each example's command prints today", () => {
    const blocks = checkOutputs();
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const block of blocks) expect(block.text, `${block.file}: \`${block.command}\` (node scripts/docOutputs.mjs rewrites it)`).toBe(block.expected);
  }, 120_000);

  it("link only to files and headings that exist in the repository", () => {
    for (const file of documents()) {
      for (const target of links(file)) {
        if (/^https?:/.test(target)) continue;
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const resolved = path === "" ? file : normalize(join(dirname(file), path));
        expect(resolved.startsWith(".."), `${file}: ${target} leaves the repository`).toBe(false);
        expect(existsSync(join(ROOT, resolved)), `${file}: ${target} names no file`).toBe(true);
        if (anchor !== undefined && resolved.endsWith(".md")) expect([...anchors(resolved)], `${file}: ${target} names no heading`).toContain(anchor);
      }
    }
  });

  it("do not send a reader to documents they do not have", () => {
    for (const file of documents()) expect(read(file), file).not.toMatch(/\b(agents|detection|generations|cost|cli)\.md\b|\bthe spec\b|inputs\.md §/);
  });

  it("keep the README to install, recipes, exit status and links: 15 KB at most", () => {
    const readme = read("README.md");
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
    for (const heading of ["## Install", "## Recipes", "## Exit status", "## Documentation"]) expect(readme).toContain(heading);
  });
});
