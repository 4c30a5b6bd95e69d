/** Error outcomes: the text an error is hashed by, and the unknown-tool name read from it. */
import { describe, expect, it } from "vitest";
import { errorBytes as errorText, unknownToolName } from "../../src/core/hashing.js";
import { hashing } from "../helpers/replay.js";
import { toBytes } from "../../src/core/byteText.js";

const failure = (value: unknown, tool = "read") => hashing.outcomeHash(tool, {}, { kind: "error", value }, "text");
const errorHash = (value: unknown) => failure(value).resultHash;

describe("error hash", () => {
  it("is `error:` plus a digest of the text, distinct from a result with that text", () => {
    expect(errorHash("boom")).toMatch(/^error:/);
    expect(errorHash("boom")).toBe(errorHash("boom"));
    expect(errorHash("boom")).not.toBe(errorHash("bang"));
    const asResult = hashing.outcomeHash("read", {}, { kind: "result", value: "boom" }, "text").resultHash;
    expect(errorHash("boom")).not.toBe(asResult);
  });

  it("hashes an Error-like object by its message", () => {
    expect(errorHash({ message: "boom" })).toBe(errorHash("boom"));
    expect(errorHash({ name: "TypeError", message: "boom", stack: "TypeError: boom\n    at x" })).toBe(errorHash("boom"));
    expect(errorText({ message: "boom", code: "E1" }, "text")).toBe("boom");
  });

  it("hashes an empty string like `Error` (the name of new Error(''))", () => {
    expect(errorText("", "text")).toBe("Error");
    expect(errorHash("")).toBe(errorHash("Error"));
    expect(errorHash("")).not.toBe(errorHash(" "));
  });

  it("renders numbers and booleans as text", () => {
    expect(errorText(404, "text")).toBe("404");
    expect(errorText(false, "text")).toBe("false");
    expect(errorHash(404)).toBe(errorHash("404"));
    expect(errorHash(true)).toBe(errorHash("true"));
    expect(errorHash(1)).toBe(errorHash(JSON.parse("1.0")));
  });

  it("serializes any other value stably", () => {
    expect(errorHash({ code: 5, detail: "x" })).toBe(errorHash({ detail: "x", code: 5 }));
    expect(errorHash({ code: 5 })).not.toBe(errorHash({ code: 6 }));
    expect(errorHash(["a", "b"])).not.toBe(errorHash(["b", "a"]));
    // An error that is present but null is still an error outcome with a hash.
    expect(errorHash(null)).toMatch(/^error:/);
  });

  it("drops lone surrogates from the text", () => {
    expect(errorHash("bo\uD800om")).toBe(errorHash("boom"));
    expect(errorHash("bo\uDFFFom")).toBe(errorHash("boom"));
    expect(errorHash("\uD83D\uDE00")).not.toBe(errorHash(""));
  });
});

describe("unknown tool name", () => {
  it.each([
    ["Unknown tool: browser", "browser"],
    ["unknown tool browser", "browser"],
    ["UNKNOWN TOOL:  \"Web_Fetch\"", "web_fetch"],
    ["Error: Unknown tool: 'mcp.github-search' (did you mean search?)", "mcp.github-search"],
    ["Tool \"foo\" not found", "foo"],
    ["tool 'Bar.Baz' is not available", "bar.baz"],
    ["TOOL x-1 IS NOT AVAILABLE", "x-1"],
    // JavaScript's \s includes no-break space and the line separators.
    ["unknown tool\u00A0nbsp", "nbsp"],
    ["tool\u2028sep\u2029not found", "sep"],
  ])("reads %j as %j", (text, name) => {
    expect(unknownToolName(text)).toBe(name);
    expect(failure(text).unknownTool).toBe(name);
  });

  it.each([
    "ENOENT: no such file",
    "Unknown toolbox",
    "tool foo was removed",
    "unknown tool: ",
    // ASCII case-folding only: the Kelvin sign and long s are not k and s.
    "unknown tool: \u212Aelvin",
    "unknown tool: \u017Fearch",
  ])("finds no name in %j", (text) => {
    expect(unknownToolName(text)).toBeUndefined();
    expect(failure(text)).toEqual({ resultHash: expect.stringMatching(/^error:/) });
  });

  it("is read from an Error's message and from a serialized error object", () => {
    expect(failure({ message: "Unknown tool: browser" }).unknownTool).toBe("browser");
    expect(failure({ code: 404, detail: "Tool 'shell' not found" }).unknownTool).toBe("shell");
  });

  it("is read only from errors, never from results", () => {
    const outcome = hashing.outcomeHash("browser", {}, { kind: "result", value: { content: [{ type: "text", text: "Unknown tool: browser" }] } }, "text");
    expect(outcome.unknownTool).toBeUndefined();
    expect(hashing.outcomeHash("browser", {}, { kind: "result", value: "Unknown tool: browser" }, "text").unknownTool).toBeUndefined();
  });
});

describe("unknown tool in an error of byte strings", () => {
  const inBytes = (text: string) => hashing.outcomeHash("read", {}, { kind: "error", value: toBytes(text) }, "bytes");
  it("is read as from the text, any case, behind Unicode white space", () => {
    for (const text of ["Unknown tool:\u00a0browser", "TOOL\u2003'shell'\u3000not found", "échec — unknown TOOL: x.y"]) {
      expect(inBytes(text).unknownTool).toBe(unknownToolName(text));
      expect(inBytes(text).unknownTool).toBeDefined();
      expect(inBytes(text).resultHash).toBe(failure(text).resultHash);
    }
    expect(inBytes("échec — nothing of the kind").unknownTool).toBeUndefined();
  });
});
