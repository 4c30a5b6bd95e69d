// Prints the shape of a folder of session transcripts: line sizes (median, percentiles), the share of
// lines and bytes of each entry type, and the share of lines holding non-ASCII text. How the
// figures in generateReal.mjs were measured, and how to check that generated data has that shape.
//
//   node bench/measure.mjs FOLDER
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (/\.jsonl/.test(entry.name)) files.push(path);
  }
};
walk(process.argv[2] ?? ".");
const sizes = [];
const kinds = new Map();
let nonAscii = 0;
let bytes = 0;
const add = (kind, n) => {
  const tally = kinds.get(kind) ?? { lines: 0, bytes: 0 };
  tally.lines++;
  tally.bytes += n;
  kinds.set(kind, tally);
};
const kindOf = (entry) => {
  if (entry.type === "custom") return `custom:${entry.customType}`;
  if (entry.type !== "message") return entry.type;
  const role = entry.message?.role;
  if (role !== "assistant") return `message:${role}`;
  return entry.message.content?.some?.((block) => block.type === "toolCall") ? "message:assistant+calls" : "message:assistant-text";
};
const fileSizes = [];
for (const file of files) {
  const buf = readFileSync(file);
  fileSizes.push(buf.length);
  for (const line of buf.toString("utf8").split("\n")) {
    if (!line) continue;
    const n = Buffer.byteLength(line) + 1;
    sizes.push(n);
    bytes += n;
    if (/[^\x00-\x7f]/.test(line)) nonAscii++;
    try {
      add(kindOf(JSON.parse(line)), n);
    } catch {
      add("bad", n);
    }
  }
}
sizes.sort((a, b) => a - b);
fileSizes.sort((a, b) => a - b);
const at = (list, p) => list[Math.floor(p * (list.length - 1))];
const pct = (x) => `${(100 * x).toFixed(1)}%`;
console.log(`${files.length} files, ${sizes.length} lines, ${(bytes / 1e6).toFixed(1)} MB; file sizes: median ${at(fileSizes, 0.5)} B, p90 ${at(fileSizes, 0.9)}, max ${fileSizes.at(-1)}`);
console.log(`line bytes: p10 ${at(sizes, 0.1)}, p25 ${at(sizes, 0.25)}, median ${at(sizes, 0.5)}, p75 ${at(sizes, 0.75)}, p90 ${at(sizes, 0.9)}, p99 ${at(sizes, 0.99)}, max ${sizes.at(-1)}`);
console.log(`lines with non-ASCII text: ${pct(nonAscii / sizes.length)}`);
for (const [kind, tally] of [...kinds].sort((a, b) => b[1].bytes - a[1].bytes)) {
  console.log(`  ${kind.padEnd(40)} ${pct(tally.lines / sizes.length).padStart(6)} of lines, ${pct(tally.bytes / bytes).padStart(6)} of bytes`);
}
