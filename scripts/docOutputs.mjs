// Example outputs in README.md and docs/*.md are made by running their commands, so they cannot go
// stale: a fenced block right after a marker line
//
//   <!-- output: looplens analyze fixtures/*.jsonl -->
//   <!-- output: looplens analyze fixtures/gateway/pair --config x.json; lines 1-5 -->
//
// holds what the command prints on standard output (`2>&1` in the command for standard error too),
// on an 80-column pipe without colour, from the repository's root; `lines A-B` keeps those lines
// only (an excerpt). A `console` block shows the command too, as `$ looplens …` on its first line.
// The command runs under bash, so globs expand; `looplens` is this checkout's bin/looplens.
//
// `node scripts/docOutputs.mjs` rewrites every block; `--check` lists the stale ones and exits 1
// (test/docs/docOutputs.test.ts does the same check in `npm test`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const MARKER = /^<!-- output: (.+?)(?:; lines (\d+)-(\d+))? -->\n```(\w+)\n([\s\S]*?)```$/gm;

/** The documents that hold example outputs: the README and every page of docs/. */
export function documents(root = ROOT) {
  const docs = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => join("docs", name));
  return ["README.md", ...docs.sort()];
}

/**
 * Every marked block of a document: its command, its excerpt, its language and the text it holds.
 * @param {string} text
 */
export function markedBlocks(text) {
  return [...text.matchAll(MARKER)].map((m) => ({
    command: m[1],
    lines: m[2] === undefined ? undefined : [Number(m[2]), Number(m[3])],
    language: m[4],
    text: m[5],
    index: m.index,
    length: m[0].length,
  }));
}

/**
 * What a block should hold: the command's output (its excerpt), with `$ command` first in a console block.
 * @param {{ command: string, lines?: number[], language: string }} block
 * @param {string} cacheDir a result cache folder of the caller's (so that the user's is not touched)
 */
export function expectedText(block, cacheDir, root = ROOT) {
  const bin = join(root, "bin", "looplens");
  const script = `looplens() { node ${JSON.stringify(bin)} "$@"; }\n${block.command}`;
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", COLUMNS: "80", NO_COLOR: "1", TZ: "UTC", LANG: "C.UTF-8", LOOPLENS_CACHE_DIR: cacheDir };
  const run = spawnSync("bash", ["-c", script], { cwd: root, env, encoding: "utf8" });
  let output = run.stdout;
  if (block.lines) output = `${output.split("\n").slice(block.lines[0] - 1, block.lines[1]).join("\n")}\n`;
  return block.language === "console" ? `$ ${block.command.replace(/ 2>&1$/, "")}\n${output}` : output;
}

/** Each document's marked blocks with what they hold and what they should hold. */
export function checkOutputs(root = ROOT) {
  const cacheDir = mkdtempSync(join(tmpdir(), "looplens-doc-outputs-"));
  try {
    return documents(root).flatMap((file) => {
      const text = readFileSync(join(root, file), "utf8");
      return markedBlocks(text).map((block) => ({ file, ...block, expected: expectedText(block, cacheDir, root) }));
    });
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

function rewrite(root = ROOT) {
  const blocks = checkOutputs(root);
  for (const file of new Set(blocks.map((block) => block.file))) {
    let text = readFileSync(join(root, file), "utf8");
    // From the end, so that earlier indexes stay right.
    for (const block of blocks.filter((b) => b.file === file).reverse()) {
      const marker = text.slice(block.index, block.index + block.length).split("\n")[0];
      text = `${text.slice(0, block.index)}${marker}\n\`\`\`${block.language}\n${block.expected}\`\`\`${text.slice(block.index + block.length)}`;
    }
    writeFileSync(join(root, file), text);
  }
  return blocks;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const stale = checkOutputs().filter((block) => block.text !== block.expected);
    for (const block of stale) console.error(`${block.file}: stale output of \`${block.command}\``);
    process.exit(stale.length > 0 ? 1 : 0);
  }
  const blocks = rewrite();
  console.log(`${blocks.length} example outputs written`);
}
