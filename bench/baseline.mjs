// What looplens is measured against, on the same files (folders walked for *.jsonl, *.ndjson, *.log
// and session archives), one file after another. Each mode is a separate process, so that each has
// a fresh heap and JIT, and prints `{mode, files, bytes, lines, bad}` as JSON.
//
//   node bench/baseline.mjs MODE PATH...
//
// - `raw`: read the bytes and nothing else (synchronous 1 MB reads into one buffer): the physical
//   limit of any tool over these files.
// - The fastest parse-everything readers we could write in plain Node (split lines, `JSON.parse`
//   every line), in the variants whose speed depends on the shape of the input:
//   - `stream-line`: asynchronous 1 MB stream reads, each line decoded as UTF-8 on its own;
//   - `sync-line`: synchronous 16 MB reads into one buffer, each line decoded on its own;
//   - `sync-chunk`: synchronous 16 MB reads, the whole chunk decoded at once and split as text;
//   - `sync-latin1`: as `sync-line`, but an ASCII line (checked natively) is made a one-byte latin1
//     string, which V8 parses faster; other lines are decoded as UTF-8. Exact: ASCII is the same in both.
// bench/run.mjs reports the fastest of these per input as "the fastest parse-everything baseline".
import { closeSync, createReadStream, openSync, readSync, readdirSync, statSync } from "node:fs";
import { isAscii } from "node:buffer";
import { join } from "node:path";

const INPUT = /\.(jsonl|ndjson|log)$|\.jsonl\.(reset|deleted)\.[^/]+$|\.jsonl\.bak-\d+-\d+$/i;

function expand(path, into) {
  if (!statSync(path).isDirectory()) return void into.push(path);
  const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) expand(child, into);
    else if (INPUT.test(entry.name)) into.push(child);
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

const buffers = new Map();

/** Synchronous reads of `size` bytes into one buffer reused for every file; `onChunk(buffer, length)` per read. */
function readSyncChunks(file, size, onChunk) {
  const fd = openSync(file, "r");
  try {
    if (!buffers.has(size)) buffers.set(size, Buffer.allocUnsafe(size));
    const buffer = buffers.get(size);
    for (let n = readSync(fd, buffer, 0, size, null); n > 0; n = readSync(fd, buffer, 0, size, null)) {
      bytes += n;
      onChunk(buffer, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** Byte-level splitting: `line(buf, start, end)` per complete line, the unfinished tail carried over (copied). */
function byteLines(line) {
  let carry = null;
  return {
    push(chunk, length) {
      let start = 0;
      for (let nl = chunk.indexOf(10, 0); nl !== -1 && nl < length; nl = chunk.indexOf(10, start)) {
        if (carry) {
          const joined = Buffer.concat([carry, chunk.subarray(start, nl)]);
          carry = null;
          line(joined, 0, joined.length);
        } else {
          line(chunk, start, nl);
        }
        start = nl + 1;
      }
      if (start < length) carry = carry ? Buffer.concat([carry, chunk.subarray(start, length)]) : Buffer.from(chunk.subarray(start, length));
    },
    end() {
      if (carry) line(carry, 0, carry.length);
      carry = null;
    },
  };
}

const utf8Line = (buf, start, end) => parse(buf.toString("utf8", start, end));
const latin1Line = (buf, start, end) => parse(isAscii(buf.subarray(start, end)) ? buf.latin1Slice(start, end) : buf.toString("utf8", start, end));

const MODES = {
  raw(file) {
    readSyncChunks(file, 1 << 20, () => {});
  },
  async "stream-line"(file) {
    const splitter = byteLines(utf8Line);
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
      bytes += chunk.length;
      splitter.push(chunk, chunk.length);
    }
    splitter.end();
  },
  "sync-line"(file) {
    const splitter = byteLines(utf8Line);
    readSyncChunks(file, 16 << 20, (buffer, n) => splitter.push(buffer, n));
    splitter.end();
  },
  "sync-latin1"(file) {
    const splitter = byteLines(latin1Line);
    readSyncChunks(file, 16 << 20, (buffer, n) => splitter.push(buffer, n));
    splitter.end();
  },
  "sync-chunk"(file) {
    let carry = Buffer.alloc(0);
    readSyncChunks(file, 16 << 20, (buffer, n) => {
      const last = buffer.lastIndexOf(10, n - 1);
      if (last === -1) {
        carry = Buffer.concat([carry, buffer.subarray(0, n)]);
        return;
      }
      const text = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, last)]).toString("utf8") : buffer.toString("utf8", 0, last);
      for (const line of text.split("\n")) parse(line);
      carry = Buffer.from(buffer.subarray(last + 1, n));
    });
    if (carry.length > 0) parse(carry.toString("utf8"));
  },
};

const [mode, ...paths] = process.argv.slice(2);
const run = MODES[mode];
if (!run) {
  console.error(`usage: node bench/baseline.mjs ${Object.keys(MODES).join("|")} PATH...`);
  process.exit(2);
}
const files = [];
for (const path of paths) expand(path, files);
for (const file of files) await run(file);
process.stdout.write(`${JSON.stringify({ mode, files: files.length, bytes, lines, bad })}\n`);
