/**
 * The table report at several widths: every line within the width, no word split, the columns that
 * give way first (count, the threshold's name, the file), their facts kept on the explanation line;
 * the run header's runtime facts, the worst runs and the legend.
 */
import { describe, expect, it } from "vitest";
import type { ReplayedFinding, ReplayedRun } from "../../src/core/findings.js";
import { analysisOfRuns } from "../helpers/inProcess.js";
import type { WriteOptions } from "../../src/reporters/model.js";
import { renderFormat } from "../helpers/reportModel.js";
import { displayWidth } from "../../src/reporters/textFit.js";

const CWD = "/home/me/project";
const FILE = `${CWD}/sessions/run-build.jsonl`;

function finding(call: number, level: ReplayedFinding["level"], afterStop = false, run = "build"): ReplayedFinding {
  const critical = level !== "warning";
  return {
    run,
    agent: "main",
    session: "s1",
    file: FILE,
    line: 2 * call,
    call,
    tool: "command_status",
    detector: "known_poll_no_progress",
    level,
    count: call - 1,
    threshold: { name: critical ? "criticalThreshold" : "warningThreshold", value: critical ? 20 : 10 },
    afterStop,
    message: `${level} at ${call}`,
    argsHash: "command_status:abc",
    preview: { args: "commandId=build-42", result: "running", error: false },
  };
}

const build: ReplayedRun = {
  run: "build",
  agent: "main",
  session: "s1",
  file: FILE,
  calls: 22,
  compactions: 0,
  findings: [...Array.from({ length: 10 }, (_, i) => finding(11 + i, "warning")), finding(21, "critical"), finding(22, "critical", true)],
  firstStop: { kind: "block", call: 21 },
  guardWindows: [],
  recordedVetoes: 2,
  recordedVetoCalls: [21, 22],
};

const hostile: ReplayedRun = {
  ...build,
  run: "evil",
  file: "/elsewhere/x.jsonl",
  findings: [{ ...finding(5, "abort", false, "evil"), file: "/elsewhere/x.jsonl", detector: "compaction_loop_persisted", threshold: { name: "postCompactionGuard.windowSize", value: 3 }, preview: { args: "path=\u001b[31mred\u0007", result: "line1\u001b]52;c;x\u0007", error: true } }],
  firstStop: { kind: "abort", call: 5 },
  recordedVetoes: 0,
  recordedVetoCalls: [],
};

/** The table of these runs (`all`: with `--all`). */
const table = (runs: ReplayedRun[], options: Partial<WriteOptions> & { all?: boolean } = {}) => {
  const { all, ...write } = options;
  return renderFormat("table", analysisOfRuns(runs, FILE, 50), { all: all === true }, { color: false, cwd: CWD, ...write });
};

/** Words of a text, for checking that wrapping split none. */
const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean));

describe("the table at several widths", () => {
  const wide = table([build], { width: 200 });

  it("at full width: every column, file:line relative to the current directory, the explanation under the row", () => {
    expect(wide).toMatch(/\n 11–20 sessions\/run-build\.jsonl:22 command_status known_poll_no_progress warning ×10 10–19 +warningThreshold=10\n/);
    expect(wide).toContain('\n       command_status(commandId=build-42) returned "running" unchanged 10–19 times; warns at 10\n');
    expect(wide).toMatch(/\n 22 .* block .* criticalThreshold=20 ⏹\n/);
  });

  for (const width of [120, 80, 60, 40]) {
    it(`at ${width} columns no line is wider and no word is split`, () => {
      const text = table([build, hostile], { width });
      const reference = words(table([build, hostile], { width: 1000 }));
      for (const line of text.split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      // A word is whole (as at 1000 columns), or one the narrower table clipped or moved (it ends in … or
      // ":"), or the header's path with its middle left out.
      for (const word of words(text)) if (!reference.has(word) && !word.includes("…")) expect(reference.has(word.replace(/:$/, "")) || /^\d+$|^limit$|^line$/.test(word), word).toBe(true);
    });
  }

  it("at 80 columns the count and the threshold's name go, the file moves to the explanation line", () => {
    const text = table([build], { width: 80 });
    expect(text).toMatch(/\n call +line +tool +detector +level +limit\n/);
    expect(text).toMatch(/\n 11–20 22 +command_status known_poll_no_progress warning ×10 10\n/);
    expect(text).toContain("       sessions/run-build.jsonl:22: command_status(commandId=build-42) returned");
    expect(text).toContain("warns at warningThreshold=10");
  });

  it("a location too long for the explanation line is left out, never clipped", () => {
    const deep = `${CWD}/${"very-long-folder-name/".repeat(4)}run.jsonl`;
    const text = table([{ ...build, file: deep, findings: [...build.findings].map((f) => ({ ...f, file: deep })) }], { width: 80 });
    // Only the run header's path is shortened (its middle left out, the file's name kept), to fit the width.
    const header = text.split("\n").filter((line) => line.endsWith("· 0 compactions"));
    expect(header).toEqual([expect.stringMatching(/^ {2}very-long-fol[^ ]*…[^ ]*-name\/run\.jsonl · 22 calls · 0 compactions$/)]);
    expect(displayWidth(header[0]!)).toBeLessThanOrEqual(80);
    expect(text).toContain('\n       command_status(commandId=build-42) returned "running" unchanged');
  });

  it("at 60 columns the tool is clipped and the verdict count goes too", () => {
    const text = table([build], { width: 60 });
    expect(text).toMatch(/\n 11–20 22 +command_… known_poll_no_progress warning 10\n/);
  });

  it("the width is 80 when unknown; prose lines then stay whole (a pipe)", () => {
    const text = table([build]);
    expect(text).toMatch(/\n call +line +tool +detector +level +limit\n/);
    expect(text).toContain("\n  warningThreshold=10 criticalThreshold=20 globalCircuitBreakerThreshold=30\n");
  });

  it("--no-explain: no explanation lines; file:line is then the last column to give way", () => {
    const text = table([build], { width: 200, explain: false });
    expect(text).not.toContain("returned");
    expect(text).toContain("warningThreshold=10");
    const narrow = table([build], { width: 80, explain: false });
    // Tool and detector are clipped before the file goes.
    expect(narrow).toMatch(/\n 11–20 sessions\/run-build\.jsonl:22 command… known_poll_no_progr… warning 10\n/);
    for (const line of narrow.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it("strips control characters and escapes from previews", () => {
    const text = table([hostile], { width: 200 });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain("command_status(path=red) failed with the same error \"line1\"");
  });
});

describe("run headers, worst runs, legend", () => {
  const text = table([build, hostile], { width: 100 });

  it("says which calls the live runtime really blocked", () => {
    expect(text).toContain("  the live runtime blocked calls 21 and 22 (loop vetoes in the transcript)");
    // A run only the runtime blocked is shown though the replay found nothing.
    const quiet = table([{ ...build, findings: [], firstStop: null, recordedVetoes: 1, recordedVetoCalls: [7] }], { width: 100 });
    expect(quiet).toContain("the live runtime blocked call 7 (a loop veto in the transcript)");
  });

  it("lists the worst runs, aborts first, with the call and file:line of their first stop", () => {
    expect(text).toContain("  worst runs:\n    evil (agent main): aborted at call 5 · /elsewhere/x.jsonl:10\n    build (agent main): blocked at call 21 · sessions/run-build.jsonl:42\n");
  });

  it("ranks them as --top does: an earlier first stop before more stops", () => {
    // `build` is blocked at call 21 and again at 22; `early` once, at call 3.
    const early: ReplayedRun = { ...build, run: "early", findings: [finding(3, "critical", false, "early")], firstStop: { kind: "block", call: 3 } };
    expect(table([build, early], { width: 100 })).toContain("  worst runs:\n    early (agent main): blocked at call 3 · sessions/run-build.jsonl:6\n    build (agent main): blocked at call 21");
  });

  it("ends with the legend for 'block' and ⏹", () => {
    expect(text.trimEnd().split("\n").at(-1)).toBe("block = critical verdict (the call is refused) · ⏹ = after the run's first stop");
    expect(table([{ ...build, findings: [], firstStop: null, recordedVetoes: 0 }], { all: true })).not.toContain("block = critical verdict");
  });
});

describe("--all", () => {
  const quiet = (run: string, extra: Partial<ReplayedRun> = {}): ReplayedRun => ({ ...build, run, session: "s2", calls: 4, findings: [], firstStop: null, recordedVetoes: 0, recordedVetoCalls: [], ...extra });

  it("shows a run without findings in one line, quiet runs together, a blank line before and after a whole run", () => {
    const text = table([quiet("q1"), quiet("q2", { compactions: 2 }), build, quiet("s2#3")], { all: true, width: 200 });
    expect(text).toContain(
      [
        "",
        "run q1 · agent main · session s2 · sessions/run-build.jsonl · 4 calls · 0 compactions · no findings",
        "run q2 · agent main · session s2 · sessions/run-build.jsonl · 4 calls · 2 compactions · no findings",
        "",
        "run build · agent main · session s1",
        "",
      ].join("\n"),
    );
    expect(text).toContain("\nrun s2#3 · agent main · session s2 · sessions/run-build.jsonl · 4 calls · 0 compactions · no findings\n\nSummary\n");
    expect(text).not.toContain("  no findings");
  });

  it("keeps the whole header of a run without findings that has something to say (a veto the runtime recorded)", () => {
    const text = table([quiet("q1", { recordedVetoes: 1, recordedVetoCalls: [3] })], { all: true, width: 200 });
    expect(text).toContain("run q1 · agent main · session s2\n  sessions/run-build.jsonl · 4 calls · 0 compactions\n  the live runtime blocked call 3");
    expect(text).not.toContain("q1 · agent main · session s2 · sessions/run-build.jsonl · 4 calls · 0 compactions · no findings");
  });
});

describe("markdown", () => {
  it("carries file:line and the explanation, escaped", () => {
    const md = renderFormat("markdown", analysisOfRuns([build, hostile], FILE, 50), {}, { color: false, cwd: CWD });
    expect(md).toContain("| 11–20 | sessions/run-build.jsonl:22 | command_status | known_poll_no_progress | warning ×10 | 10–19 | warningThreshold=10 |  | command_status(commandId=build-42) returned \"running\" unchanged 10–19 times; warns at 10 |");
    expect(md).toContain("The live runtime blocked calls 21 and 22 (loop vetoes in the transcript).");
    expect(md).not.toContain("\u001b");
  });
});
