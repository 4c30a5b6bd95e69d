/**
 * Console text in Gateway logs: the `[subsystem]` prefix of captured console lines, the records of
 * the text console form, colour codes, and the sniffing rule that must not take other text for a log.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isContinuation, isFullRecord, looksLikeTextLog, parseTextRecord, splitConsolePrefix, stripAnsi } from "../../../src/adapters/gateway/consoleLine.js";
import { adapterFor } from "../../../src/adapters/registry.js";
import { textSource } from "../../../src/adapters/io/sources.js";
import { TslogParser } from "../../../src/adapters/gateway/tslogLine.js";

const ESC = "\u001b";

describe("records of the text console form", () => {
  it("time (as UTC, like _meta.date), subsystem and message", () => {
    expect(parseTextRecord("2026-06-16T02:22:49.094+02:00 [agent/embedded] embedded run start: runId=abc")).toEqual({
      subsystem: "agent/embedded",
      message: "embedded run start: runId=abc",
      ts: "2026-06-16T00:22:49.094Z",
    });
    expect(parseTextRecord("2026-06-16T00:22:49Z [tools] read failed: ENOENT")).toMatchObject({ subsystem: "tools", ts: "2026-06-16T00:22:49.000Z" });
    expect(parseTextRecord("2026-06-16T00:22:49.094Z [gateway]")).toMatchObject({ subsystem: "gateway", message: "" });
  });

  it("colour codes anywhere in the line are removed first", () => {
    const line = `${ESC}[2m2026-06-16T02:22:49.094+02:00${ESC}[22m ${ESC}[36m[agents/loop-detection]${ESC}[39m Loop warning: exec called 10 times with identical arguments`;
    expect(parseTextRecord(line)).toMatchObject({ subsystem: "agents/loop-detection", message: "Loop warning: exec called 10 times with identical arguments" });
    expect(stripAnsi(`${ESC}]8;;https://x.invalid${ESC}\\link${ESC}]8;;${ESC}\\ ${ESC}[1;31mred${ESC}[0m`)).toBe("link red");
  });

  it.each([
    ["no seconds", "2026-06-16T02:22 [gateway] ready"],
    ["no offset", "2026-06-16T02:22:49.094 [gateway] ready"],
    ["date only", "2026-06-16 [gateway] ready"],
    ["space instead of T", "2026-06-16 02:22:49Z [gateway] ready"],
    ["no instant (month 13)", "2026-13-16T02:22:49Z [gateway] ready"],
    ["text before the time", "at 2026-06-16T02:22:49Z [gateway] ready"],
  ])("not a record: %s", (_why, line) => {
    expect(parseTextRecord(line)).toBeUndefined();
  });

  it("a time and text without a [subsystem] is the console's own record, but not the full shape that tells the form", () => {
    expect(parseTextRecord("2026-06-16T02:22:49Z Gateway listening")).toEqual({ subsystem: null, message: "Gateway listening", ts: "2026-06-16T02:22:49.000Z" });
    expect(parseTextRecord("2026-06-16T02:22:49Z [gateway]ready")).toMatchObject({ subsystem: null, message: "[gateway]ready" });
    const lines = ["2026-06-16T02:22:49Z Gateway listening", "2026-06-16T02:22:49Z [my gateway] ready", "2026-06-16T02:22:49Z [] ready", "2026-06-16T02:22:49Z [gateway] ready"];
    expect(lines.map(isFullRecord)).toEqual([false, false, false, true]);
    expect(looksLikeTextLog(["2026-06-16T02:22:49Z Gateway listening", "2026-06-16T02:22:50Z Gateway ready"])).toBe(false);
  });

  it("continuation lines are indented or closing brackets; other text is not", () => {
    expect(["    at onErrorNT (node:internal/child_process:483:16)", "\tcode: 'ENOENT',", "}", "]),", `  ${ESC}[90mat x${ESC}[39m`].map(isContinuation)).toEqual([true, true, true, true, true]);
    expect(["Error: listen EADDRINUSE", "# Notes", "{", "   ", "plain words"].map(isContinuation)).toEqual([false, false, false, false, false]);
  });
});

describe("captured console lines in the JSON form", () => {
  const parser = new TslogParser();
  const bare = (text: string) => parser.parse({ "0": text, _meta: { logLevelName: "ERROR", date: "2026-06-16T00:22:49.094Z" }, time: "2026-06-16T02:22:49.094+02:00" });

  it("the [subsystem] prefix of a bare string is read out, colour codes removed", () => {
    expect(bare("[tools] read failed: ENOENT: no such file")).toEqual({
      ok: true,
      entry: { subsystem: "tools", message: "read failed: ENOENT: no such file", ts: "2026-06-16T00:22:49.094Z", level: "ERROR" },
    });
    expect(bare(`${ESC}[31m[tools]${ESC}[39m exec failed: boom`)).toMatchObject({ ok: true, entry: { subsystem: "tools", message: "exec failed: boom" } });
  });

  it("console text without a prefix stays the console's (subsystem null)", () => {
    expect(bare("Gateway listening on 18789")).toMatchObject({ ok: true, entry: { subsystem: null, message: "Gateway listening on 18789" } });
    expect(bare("[not a prefix]: text")).toMatchObject({ ok: true, entry: { subsystem: null } });
    expect(splitConsolePrefix("[tools]")).toEqual({ subsystem: "tools", message: "" });
  });
});

describe("sniffing the text console form", () => {
  const record = (i: number, subsystem = "agent/embedded") => `2026-06-16T02:22:${String(i).padStart(2, "0")}.094+02:00 [${subsystem}] embedded run start: runId=r${i}`;
  const formatOf = async (text: string) => {
    const chosen = await adapterFor(textSource("x.log", text));
    return "adapter" in chosen ? chosen.adapter.format : "not recognised";
  };

  it("records, even with a stack trace among the first lines, are a Gateway log", async () => {
    expect(await formatOf([record(1), record(2), record(3)].join("\n"))).toBe("gateway-log");
    expect(await formatOf([record(1, "tools"), "    at a (x.js:1:1)", "    at b (x.js:2:1)", record(2), record(3)].join("\n"))).toBe("gateway-log");
    expect(await formatOf(record(1))).toBe("gateway-log");
    expect(await formatOf(readFileSync("test/data/gateway/console-text.log", "utf8"))).toBe("gateway-log");
  });

  it.each([
    ["a plain text file", "Meeting notes\nWe talked about the gateway.\nNext steps: none.\n"],
    ["a markdown file", "# Gateway\n\n- [agent/embedded] runs\n- 2026-06-16T02:22:49Z was the day\n\n```\nlooplens analyze\n```\n"],
    ["one record among prose", `${record(1)}\nthen I noticed\nthe gateway\nhad stopped\n`],
    ["records after a minority", `intro\nmore intro\nstill intro\n${record(1)}\n${record(2)}\n`],
    ["a canonical events file", readFileSync("fixtures/healthy.jsonl", "utf8")],
    ["an OpenClaw session transcript", readFileSync("fixtures/openclaw/agents/main/sessions/7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51.jsonl", "utf8")],
    ["a JSON line among records", `${record(1)}\n{"type":"tool_call"}\n${record(2)}\n`],
  ])("not a Gateway log: %s", async (_what, text) => {
    expect(await formatOf(text)).not.toBe("gateway-log");
  });

  it("the rule itself: raw text only, more than half of it records", () => {
    expect(looksLikeTextLog([record(1), "    at x", record(2)])).toBe(true);
    expect(looksLikeTextLog([record(1), "prose"])).toBe(false);
    expect(looksLikeTextLog([record(1), { "0": "x" }])).toBe(false);
    expect(looksLikeTextLog([])).toBe(false);
  });
});
