/**
 * How many strings with a given text a fresh V8 heap holds after running some code: the only way to
 * see whether two equal strings are one object (JavaScript compares strings by value). The code
 * runs in a worker thread, whose own small heap is snapshotted (v8.getHeapSnapshot, which collects
 * garbage first), with a TypeScript module of src/ loaded through esbuild's transform.
 */
import { transformSync } from "esbuild";
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";

/**
 * Runs `body` (a function's source, `async (module) => { … }`, handed the module's exports) in a
 * worker, keeps what it returns alive, and counts the heap's strings whose text is `text`.
 */
export async function stringCopiesAfter(modulePath: string, body: string, text: string): Promise<number> {
  const { code } = transformSync(readFileSync(modulePath, "utf8"), { loader: "ts", format: "esm" });
  const moduleUrl = `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`;
  const script = `
    const { parentPort, workerData } = require("node:worker_threads");
    const v8 = require("node:v8");
    (async () => {
      const kept = await (${body})(await import(workerData.moduleUrl));
      const chunks = [];
      for await (const chunk of v8.getHeapSnapshot()) chunks.push(chunk);
      const snapshot = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      // Made after the snapshot: the text to look for is no string of the heap it counts.
      const text = workerData.halves.join("");
      const { node_fields: fields, node_types: [types] } = snapshot.snapshot.meta;
      const width = fields.length, typeAt = fields.indexOf("type"), nameAt = fields.indexOf("name");
      let copies = 0;
      for (let i = 0; i < snapshot.nodes.length; i += width) {
        const type = types[snapshot.nodes[i + typeAt]];
        if (type.includes("string") && snapshot.strings[snapshot.nodes[i + nameAt]] === text) copies++;
      }
      parentPort.postMessage({ copies, kept: kept !== undefined });
    })().catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
  `;
  const worker = new Worker(script, { eval: true, workerData: { moduleUrl, halves: [text.slice(0, 1), text.slice(1)] } });
  try {
    const reply = await new Promise<{ copies?: number; error?: string }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply.copies!;
  } finally {
    await worker.terminate();
  }
}
