/** Previews of a call's arguments and outcome for `looplens explain` (pipeline/explainPreview.ts). */
import { describe, expect, it } from "vitest";
import { argsPreview, outcomePreview, PREVIEW_CHARS } from "../../src/pipeline/explainPreview.js";
import { toBytes } from "../../src/core/byteText.js";

const result = (fields: Record<string, unknown>) => ({ type: "tool_result" as const, run: "r", file: "f", line: 1, ...fields });

describe("argsPreview", () => {
  it("writes an object as key=value pairs, strings bare, other values as JSON", () => {
    expect(argsPreview({ action: "poll", sessionId: "p9", n: 3, flags: ["a"] }, "text")).toBe('action=poll sessionId=p9 n=3 flags=["a"]');
    expect(argsPreview(undefined, "text")).toBe("(no arguments)");
    expect(argsPreview({}, "text")).toBe("{}");
    expect(argsPreview("just text", "text")).toBe("just text");
  });

  it("cuts long or multi-line arguments to one short line, whatever their size", () => {
    const preview = argsPreview({ command: `echo ${"x".repeat(5_000_000)}\nsecond line` }, "text");
    expect(preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    expect(preview.endsWith("…")).toBe(true);
    expect(argsPreview({ a: "one\n  two" }, "text")).toBe("a=one two");
  });

  it("decodes byte strings (arguments the adapter kept as bytes)", () => {
    expect(argsPreview({ path: toBytes("café.md") }, "bytes")).toBe("path=café.md");
  });
});

describe("outcomePreview", () => {
  it("shows a result's first text, an error as error: …, and says when there is none", () => {
    expect(outcomePreview(result({ result: { content: [{ type: "text", text: "still running" }] } }))).toBe("still running");
    expect(outcomePreview(result({ error: "ENOENT: no such file" }))).toBe("error: ENOENT: no such file");
    expect(outcomePreview(result({ result: { status: "ok" } }))).toBe('{"status":"ok"}');
    expect(outcomePreview(result({}))).toBe("(no result)");
  });
});
