/** The finding ledger (pipeline/watch/findingLedger.ts): what is new, what was only named, what was revised. */
import { describe, expect, it } from "vitest";
import type { Finding, LiveFinding, ReplayedFinding } from "../../src/core/findings.js";
import { FindingLedger } from "../../src/pipeline/watch/findingLedger.js";

const finding = (over: Partial<ReplayedFinding> = {}): ReplayedFinding => ({
  run: "s1#1",
  agent: "main",
  session: "s1",
  file: "s1.jsonl",
  line: 10,
  call: 5,
  tool: "read",
  detector: "generic_repeat",
  level: "warning",
  count: 10,
  threshold: { name: "warningThreshold", value: 10 },
  afterStop: false,
  message: "m",
  argsHash: "h",
  ...over,
});

const token = (file: string) => `t:${file}`;

describe("finding ledger", () => {
  it("a finding is new once; seen again (any number of analyses later) it is not", () => {
    const ledger = new FindingLedger();
    const first = ledger.settle([finding(), finding({ line: 12, call: 6, count: 11 })], token, true);
    expect(first.findings).toHaveLength(2);
    const again = ledger.settle([finding(), finding({ line: 12, call: 6, count: 11 }), finding({ line: 14, call: 7, count: 12 })], token, true);
    expect(again.findings.map((f) => f.line)).toEqual([14]);
    expect(again.named).toEqual([]);
    expect(ledger.findings).toBe(3);
  });

  it("a shown finding whose run gets its name: the run is named once per file, the finding not repeated", () => {
    const ledger = new FindingLedger();
    ledger.settle([finding(), finding({ line: 12, call: 6 })], token, true);
    const named = ledger.settle([finding({ run: "run-8f" }), finding({ run: "run-8f", line: 12, call: 6 })], token, true);
    expect(named.findings).toEqual([]);
    expect(named.named).toEqual([{ from: "s1#1", to: "run-8f", agent: "main", session: "s1", file: "s1.jsonl" }]);
    expect(ledger.settle([finding({ run: "run-8f" })], token, true).named).toEqual([]);
  });

  it("a finding seen silently (existing content) is not named to anyone, and is not new later", () => {
    const ledger = new FindingLedger();
    ledger.settle([finding()], token, false);
    expect(ledger.shownUnder("t:s1.jsonl")).toBe(false);
    const later = ledger.settle([finding({ run: "run-8f" })], token, true);
    expect(later).toEqual({ findings: [], named: [], revised: [] });
  });

  it("the same place in another file, or in a new generation of the file, is another finding", () => {
    const ledger = new FindingLedger();
    ledger.settle([finding()], token, true);
    expect(ledger.settle([finding({ file: "s2.jsonl" })], token, true).findings).toHaveLength(1);
    expect(ledger.settle([finding()], () => "t:s1.jsonl#2", true).findings).toHaveLength(1);
  });

  it("a finding outside any run whose agent and session come later is revised by where it is", () => {
    const ledger = new FindingLedger();
    const live = (over: Partial<LiveFinding>): LiveFinding => ({ ...finding(), run: null, call: null, source: "log", agent: null, session: null, ...over });
    ledger.settle([live({})], token, true);
    const news = ledger.settle([live({ agent: "main", session: "cron" })], token, true);
    expect(news.revised).toEqual([{ file: "s1.jsonl", line: 10, detector: "generic_repeat", level: "warning", run: null, agent: "main", session: "cron" }]);
    expect(news.findings).toEqual([]);
  });

  it("two equal findings are two (told apart by their rank), and places may be given other than by line", () => {
    const ledger = new FindingLedger();
    expect(ledger.settle([finding(), finding()], token, true).findings).toHaveLength(2);
    const byCall = (f: Finding) => `call ${f.call}`;
    const moving = new FindingLedger();
    moving.settle([finding({ line: 29 })], token, true, byCall);
    expect(moving.settle([finding({ line: 30 })], token, true, byCall).findings).toEqual([]);
  });

  it("diagnostics are new once, whatever counts their reason holds", () => {
    const ledger = new FindingLedger();
    const d = (reason: string) => ({ file: "s1.jsonl", line: 1, reason });
    expect(ledger.newDiagnostics([d("3 entries of this session held by more than one of its files")], token)).toHaveLength(1);
    expect(ledger.newDiagnostics([d("5 entries of this session held by more than one of its files")], token)).toEqual([]);
    expect(ledger.newDiagnostics([{ ...d("not valid JSON"), line: 4 }], token)).toHaveLength(1);
  });
});
