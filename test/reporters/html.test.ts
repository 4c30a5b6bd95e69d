/**
 * `--format html` as text (the browser tests in test/browser/ open it): a pure function of the report
 * model that embeds its data as JSON no input can break out of, under a Content-Security-Policy whose
 * hashes are those of the page's own script and stylesheet, and that stays small for many runs.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/core/config.js";
import type { ReplayedFinding, ReplayedRun } from "../../src/core/findings.js";
import { buildReport } from "../../src/pipeline/report.js";
import { CLIENT_SCRIPT } from "../../src/reporters/html/client.js";
import { DRAWN_RUNS, LISTED_RUNS, type PageData } from "../../src/reporters/html/data.js";
import { worstFirst } from "../../src/core/worstFirst.js";
import { REPORTERS } from "../../src/reporters/index.js";
import { reportText, type ReportModel } from "../../src/reporters/model.js";
import { analyzeInputs } from "../../src/pipeline/analysis.js";
import { createConfigResolver } from "../../src/pipeline/configResolution.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { analysisOfRuns } from "../helpers/inProcess.js";
import { runCli } from "../helpers/cli.js";
import { TERMINAL_UNSAFE } from "../hostile/harness.js";
import { HOSTILE, HOSTILE_RUNS, HOSTILE_TOOLS, hostileTranscript } from "./htmlHostile.js";
import { tempDir } from "../helpers/tempDir.js";

const CONFIG = { effective: { ...DEFAULT_CONFIG, enabled: true }, sources: {}, notices: [], file: null, usesLooplensDefault: true, agentOverrides: [] };
const html = (model: ReportModel, all = false) => reportText(REPORTERS.html!(model, { all, verbose: false, color: false }));

/** The page's elements by tag, as written: [attributes, content]. */
function elements(page: string, tag: string): Array<[string, string]> {
  return [...page.matchAll(new RegExp(`<${tag}([^>]*)>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => [m[1]!, m[2]!]);
}

const dataOf = (page: string): PageData => JSON.parse(elements(page, "script").find(([attrs]) => attrs.includes("application/json"))![1]) as PageData;
const sha256 = (text: string) => createHash("sha256").update(text).digest("base64");

async function hostileReport(): Promise<ReportModel> {
  const file = join(tempDir("looplens-html-"), "hostile.jsonl");
  writeFileSync(file, hostileTranscript());
  const resolver = await createConfigResolver({});
  const analysis = await analyzeInputs([file], await loadXxhashDigest(), (agent) => resolver.effectiveFor(agent).config, { timelines: true });
  return buildReport(analysis, CONFIG, "1.0.0");
}

describe("the HTML page", () => {
  it("allows only its own inline script and stylesheet, by their hashes", async () => {
    const page = html(await hostileReport());
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
    expect(csp).toBeDefined();
    const [[, style]] = elements(page, "style") as [[string, string]];
    const script = elements(page, "script").find(([attrs]) => attrs === "")![1];
    expect(csp!.split("; ")).toEqual(["default-src 'none'", `script-src 'sha256-${sha256(script)}'`, `style-src 'sha256-${sha256(style)}'`, "base-uri 'none'", "form-action 'none'"]);
    // Nothing to fetch: no URL at all, not even a namespace one.
    expect(page).not.toMatch(/\b(?:https?|ftp|file|data):|\/\/[a-z]/i);
    // The CSP comes before anything it governs.
    expect(page.indexOf("Content-Security-Policy")).toBeLessThan(page.indexOf("<style>"));
  });

  it("carries hostile input only as escaped JSON data, which reads back as the (sanitized) text", async () => {
    const page = html(await hostileReport());
    const scripts = elements(page, "script");
    expect(scripts.map(([attrs]) => attrs)).toEqual([' type="application/json" id="looplens-data"', ""]);
    const [, json] = scripts[0]!;
    expect(json).toMatch(/^[\u0020-\u007e]*$/);
    expect(json).not.toMatch(/[<>&]/);
    // Outside the data, no input string appears: the markup is the reporter's own.
    const markup = page.replace(json, "");
    for (const text of ["__pwned", "javascript:", "onerror", "onload", "<img", "<svg onload", "\u202e", "\u2028"]) expect(markup).not.toContain(text);
    expect(markup).not.toMatch(/\s(?:href|src|on\w+)=/);
    expect(TERMINAL_UNSAFE.test(page)).toBe(false);
    const data = dataOf(page);
    expect(data.drawn.map((run) => run.id).sort()).toEqual([HOSTILE.script, HOSTILE.link, "gnp.exex"].sort());
    expect(new Set(data.drawn.flatMap((run) => run.tools))).toEqual(new Set(HOSTILE_TOOLS));
    expect(data.drawn[0]!.agent).toBe("a b c<!--");
    expect(data.drawn.flatMap((run) => run.rows.map((row) => row.tool))).toContain(HOSTILE.closeInJson);
    expect(HOSTILE_RUNS).toHaveLength(3);
  });

  it("draws each run from its timeline: every call in a tool segment, compactions, guard windows", async () => {
    const data = dataOf(html(await hostileReport()));
    for (const run of data.drawn) {
      const calls = run.segments.filter((_, i) => i % 2 === 1).reduce((a, b) => a + b, 0);
      expect(calls).toBe(run.calls);
      expect(run.segments.filter((_, i) => i % 2 === 0).every((tool) => tool >= 0 && tool < run.tools.length)).toBe(true);
      expect(run.marks.length).toBeGreaterThan(0);
      expect(run.patterns.length).toBeGreaterThan(0);
    }
    const compacted = data.drawn.find((run) => run.id === HOSTILE.script)!;
    expect(compacted.compactionsAfter).toEqual([22]);
    expect(compacted.guardWindows.slice(0, 1)).toEqual([22]);
  });

  it("explains each row in the table's plain words, with the runtime's message beside it", async () => {
    const model = await hostileReport();
    const data = dataOf(html(model));
    const rows = data.drawn.flatMap((run) => run.rows);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.explanation).toMatch(/ at \d+$/);
      expect(row.explanation).not.toBe(row.message);
    }
  });

  it("the page script writes input text only as text", () => {
    for (const sink of ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "href", ".src", "setAttribute(\"on"]) expect(CLIENT_SCRIPT).not.toContain(sink);
  });
});

describe("timelines through the CLI", () => {
  it("reach the page from a worker thread as from the main thread", () => {
    const page = (workers: string) => runCli(["analyze", "fixtures/ping-pong.jsonl", "--format", "html"], { env: { LOOPLENS_WORKERS: workers } });
    // One file and LOOPLENS_WORKERS=1: the file is analysed on the worker, the main thread waits.
    const [serial, threaded] = [page("0"), page("1")];
    expect(serial.status, serial.stderr).toBe(0);
    expect(threaded.stdout).toBe(serial.stdout);
    const [run] = dataOf(threaded.stdout).drawn;
    // Twenty reads of two files in turn: one tool, one segment of twenty calls.
    expect(run!.tools).toEqual(["read"]);
    expect(run!.segments).toEqual([0, 20]);
    expect(run!.calls).toBe(20);
  });
});

describe("many runs", () => {
  const finding = (run: string, call: number, level: ReplayedFinding["level"]): ReplayedFinding => ({
    run,
    agent: null,
    session: null,
    file: "many.jsonl",
    line: call,
    call,
    tool: "exec",
    detector: "generic_repeat",
    level,
    count: call - 1,
    threshold: { name: level === "warning" ? "warningThreshold" : "criticalThreshold", value: level === "warning" ? 10 : 20 },
    afterStop: false,
    message: "m",
    argsHash: "h",
  });
  const run = (i: number): ReplayedRun => {
    const level = i % 500 === 499 ? "critical" : i % 3 === 0 ? "warning" : undefined;
    return {
      run: `run-${i}`,
      agent: null,
      session: null,
      file: "many.jsonl",
      calls: 21,
      compactions: 0,
      findings: level ? [finding(`run-${i}`, 21, level)] : [],
      firstStop: level === "critical" ? { kind: "block", call: 21 } : null,
      guardWindows: [],
      recordedVetoes: 0,
    };
  };
  const analysis = (runs: ReplayedRun[]) => analysisOfRuns(runs, "many.jsonl", 1);

  it("draws the worst runs first and lists the rest in one line each", () => {
    const model = buildReport(analysis(Array.from({ length: 3000 }, (_, i) => run(i))), CONFIG, "1.0.0");
    const data = dataOf(html(model, true));
    expect(data.drawn).toHaveLength(DRAWN_RUNS);
    expect(data.listed).toHaveLength(3000 - DRAWN_RUNS);
    // The six blocked runs (input order among equals), then the warned ones.
    expect(data.drawn.slice(0, 7).map((r) => [r.id, r.severity])).toEqual([...[499, 999, 1499, 1999, 2499, 2999].map((i) => [`run-${i}`, 2]), ["run-0", 1]]);
    const severities = [...data.drawn, ...data.listed].map((r) => r.severity);
    expect(severities).toEqual([...severities].sort((a, b) => b - a));
    // Without a timeline (not asked for) every call is still one mark, of unknown tool.
    expect(data.drawn[0]!.segments).toEqual([-1, 21]);
    expect(data.notShown).toBe(0);
  });

  it("lists LISTED_RUNS runs after the drawn ones, the next worst, and counts the others", () => {
    const runs = Array.from({ length: DRAWN_RUNS + LISTED_RUNS + 1234 }, (_, i) => run(i));
    const data = dataOf(html(buildReport(analysis(runs), CONFIG, "1.0.0"), true));
    const order = worstFirst(runs).map((r) => r.run);
    expect(data.drawn.map((r) => r.id)).toEqual(order.slice(0, DRAWN_RUNS));
    expect(data.listed.map((r) => r.id)).toEqual(order.slice(DRAWN_RUNS, DRAWN_RUNS + LISTED_RUNS));
    expect(data.notListed).toBe(1234);
    expect(data.notShown).toBe(0);
    // Without --all only runs with findings count, listed or not.
    const withFindings = dataOf(html(buildReport(analysis(runs), CONFIG, "1.0.0")));
    const shown = runs.filter((r) => r.findings.length > 0).length;
    expect(withFindings.drawn.length + withFindings.listed.length + withFindings.notListed).toBe(shown);
    expect(withFindings.notShown).toBe(runs.length - shown);
  });

  it("puts runs the live runtime vetoed calls of (and no finding) after those with findings, before the others", () => {
    const quiet = (i: number): ReplayedRun => ({ ...run(i), findings: [], firstStop: null });
    const vetoed = (i: number): ReplayedRun => ({ ...quiet(i), recordedVetoes: 2 });
    // Enough runs that some of each kind are only listed, not drawn.
    const warned = (i: number): ReplayedRun => ({ ...run(0), run: `warned-${i}` }); // run(0) has a warning
    const runs = Array.from({ length: DRAWN_RUNS * 3 }, (_, i) => (i % 3 === 0 ? quiet(i) : i % 3 === 1 ? vetoed(i) : warned(i)));
    const data = dataOf(html(buildReport(analysis(runs), CONFIG, "1.0.0"), true));
    const severities = [...data.drawn, ...data.listed].map((r) => r.severity);
    expect(severities).toEqual([...severities].sort((a, b) => b - a));
    expect(severities).toContain(0.5);
    expect(severities.indexOf(0)).toBeGreaterThan(severities.lastIndexOf(0.5));
    // Without --all, a run with vetoes only is shown; one with nothing is not.
    const shown = dataOf(html(buildReport(analysis(runs), CONFIG, "1.0.0")));
    expect(shown.notShown).toBe(DRAWN_RUNS);
  });

  it("leaves runs without findings out unless --all", () => {
    const model = buildReport(analysis(Array.from({ length: 30 }, (_, i) => run(i))), CONFIG, "1.0.0");
    const data = dataOf(html(model));
    expect(data.drawn).toHaveLength(10);
    expect(data.notShown).toBe(20);
  });
});
