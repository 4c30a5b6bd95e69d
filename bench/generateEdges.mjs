// Canonical-event files of the shapes where memory could grow with the input instead of staying flat:
// many runs that each loop (a finding on most calls), one run stuck for a long time, and many runs
// that never end before the end of their file (`run_end` is optional: inputs.md §1). Used by the
// bench's memory section (`npm run bench -- --large`); deterministic, no randomness needed.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Writes `lines()` (strings) to `path` in batches; returns the bytes written. */
function writeLines(path, lines) {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "w");
  let batch = "";
  let bytes = 0;
  for (const line of lines) {
    batch += `${line}\n`;
    if (batch.length >= 1 << 20) {
      bytes += writeSync(fd, batch);
      batch = "";
    }
  }
  bytes += writeSync(fd, batch);
  closeSync(fd);
  return bytes;
}

const event = (fields) => JSON.stringify(fields);

/** A call and its result: the same arguments and the same text each time (a loop). */
function* sameCall(run, id) {
  yield event({ type: "tool_call", run, id, tool: "read", args: { path: "/same/file.txt" } });
  yield event({ type: "tool_result", run, id, tool: "read", result: { content: [{ type: "text", text: "same" }] } });
}

/** `runs` runs of `calls` identical calls each, with run_start and run_end: ~2 findings a run at 12 calls. */
export function loopingRuns(path, runs, calls = 12) {
  return writeLines(
    path,
    (function* () {
      for (let r = 0; r < runs; r++) {
        const run = `run-${r}`;
        yield event({ type: "run_start", run, session: `s-${r >> 4}`, agent: "main" });
        for (let i = 0; i < calls; i++) yield* sameCall(run, `c${r}-${i}`);
        yield event({ type: "run_end", run });
      }
    })(),
  );
}

/** One run of `calls` identical calls: a finding on every call past the thresholds. */
export function stuckRun(path, calls) {
  return writeLines(
    path,
    (function* () {
      yield event({ type: "run_start", run: "stuck", session: "s", agent: "main" });
      for (let i = 0; i < calls; i++) yield* sameCall("stuck", `c${i}`);
      yield event({ type: "run_end", run: "stuck" });
    })(),
  );
}

/** `runs` runs of one call each, in sessions of their own, none with a run_end: all open to the end. */
export function unendedRuns(path, runs) {
  return writeLines(
    path,
    (function* () {
      for (let r = 0; r < runs; r++) {
        const run = `run-${r}`;
        yield event({ type: "run_start", run, session: `s-${r}` });
        yield event({ type: "tool_call", run, id: "c", tool: "read", args: { path: `/x${r}` } });
        yield event({ type: "tool_result", run, id: "c", tool: "read", result: { content: [{ type: "text", text: "ok" }] } });
      }
    })(),
  );
}
