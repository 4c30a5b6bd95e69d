// The floor for any Node tool over NDJSON: read the bytes, split lines, JSON.parse each line.
// Same files as looplens reads (folders walked for *.jsonl / *.ndjson / *.log), one after another,
// 1 MB reads, lines decoded one at a time. Prints `{bytes, lines, bad}` as JSON.
//
//   node bench/baseline.mjs PATH...
import { createReadStream, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function expand(path, into) {
  if (!statSync(path).isDirectory()) return void into.push(path);
  const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) expand(child, into);
    else if (/\.(jsonl|ndjson|log)$/i.test(entry.name)) into.push(child);
  }
}

let bytes = 0;
let lines = 0;
let bad = 0;
const parse = (text) => {
  lines++;
  try {
    JSON.parse(text);
  } catch {
    bad++;
  }
};

const files = [];
for (const path of process.argv.slice(2)) expand(path, files);
for (const file of files) {
  let carry = null;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    bytes += chunk.length;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      if (carry) {
        parse(Buffer.concat([carry, chunk.subarray(start, nl)]).toString("utf8"));
        carry = null;
      } else {
        parse(chunk.toString("utf8", start, nl));
      }
      start = nl + 1;
    }
    if (start < chunk.length) carry = carry ? Buffer.concat([carry, chunk.subarray(start)]) : chunk.subarray(start);
  }
  if (carry) parse(carry.toString("utf8"));
}
process.stdout.write(`${JSON.stringify({ files: files.length, bytes, lines, bad })}\n`);
