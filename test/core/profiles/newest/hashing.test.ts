/**
 * Newest-generation hashing (generations.md §3, §4), translated from the cases of OpenClaw's
 * tool-loop-detection tests: what makes two calls or two outcomes "the same".
 */
import { describe, expect, it } from "vitest";
import { hashing as configurableHashing } from "../../../helpers/replay.js";
import { newestHashing } from "../../../helpers/newestReplay.js";
import type { Outcome } from "../../../../src/core/hashing.js";

const ok = (value: unknown): Outcome => ({ kind: "result", value });
const err = (value: unknown): Outcome => ({ kind: "error", value });
const text = (t: string, details: Record<string, unknown> = {}) => ({ content: [{ type: "text", text: t }], details });
const outcome = (tool: string, value: unknown, args: unknown = {}) => newestHashing.outcomeHash(tool, args, ok(value), "text");

describe("arguments hash", () => {
  it("does not normalise update_plan any more: rewording a step is a different call", () => {
    const a = { plan: [{ step: "read the file", status: "pending" }] };
    const b = { plan: [{ step: "read the config", status: "pending" }] };
    expect(newestHashing.argsHash("update_plan", a, "text")).not.toBe(newestHashing.argsHash("update_plan", b, "text"));
    // The default generation reduces both to their shape.
    expect(configurableHashing.argsHash("update_plan", a, "text")).toBe(configurableHashing.argsHash("update_plan", b, "text"));
  });

  it("keeps lone surrogates: a string with one differs from the string without it", () => {
    expect(newestHashing.argsHash("read", { path: "a\uD800" }, "text")).not.toBe(newestHashing.argsHash("read", { path: "a" }, "text"));
    expect(configurableHashing.argsHash("read", { path: "a\uD800" }, "text")).toBe(configurableHashing.argsHash("read", { path: "a" }, "text"));
  });

  it("keeps lone surrogates in keys too", () => {
    expect(newestHashing.argsHash("read", { ["k\uDC00"]: 1 }, "text")).not.toBe(newestHashing.argsHash("read", { k: 1 }, "text"));
  });

  it("sorts keys: key order does not matter", () => {
    expect(newestHashing.argsHash("read", { a: 1, b: 2 }, "text")).toBe(newestHashing.argsHash("read", { b: 2, a: 1 }, "text"));
  });

  it("never canonicalises nonces in arguments", () => {
    const wrap = (id: string) => `<<<EXTERNAL_UNTRUSTED_CONTENT id="${id}">>>x<<<END_EXTERNAL_UNTRUSTED_CONTENT id="${id}">>>`;
    expect(newestHashing.argsHash("read", { q: wrap("0123456789abcdef") }, "text")).not.toBe(newestHashing.argsHash("read", { q: wrap("fedcba9876543210") }, "text"));
  });

  it("is prefixed by the tool name", () => {
    expect(newestHashing.argsHash("read", {}, "text").startsWith("read:")).toBe(true);
  });
});

describe("errors", () => {
  it("are marked no-progress and hash by their text", () => {
    const a = newestHashing.outcomeHash("read", {}, err("ENOENT: no such file"), "text");
    expect(a.noProgress).toBe(true);
    expect(a.resultHash?.startsWith("error:")).toBe(true);
    expect(newestHashing.outcomeHash("read", {}, err({ message: "ENOENT: no such file" }), "text").resultHash).toBe(a.resultHash);
  });

  it("an empty error string hashes like the Error name", () => {
    expect(newestHashing.outcomeHash("read", {}, err(""), "text").resultHash).toBe(newestHashing.outcomeHash("read", {}, err({ message: "", name: "Error" }), "text").resultHash);
  });

  it("name the unknown tool, lower-cased, from the raw text", () => {
    expect(newestHashing.outcomeHash("Browser", {}, err("  Unknown tool: Browser  "), "text").unknownTool).toBe("browser");
    expect(newestHashing.outcomeHash("x", {}, err('Tool "web.fetch" not found'), "text").unknownTool).toBe("web.fetch");
    expect(newestHashing.outcomeHash("x", {}, err("permission denied"), "text").unknownTool).toBeUndefined();
  });

  it("canonicalise nonces in the error text", () => {
    const wrap = (id: string) => `failed: <<<EXTERNAL_UNTRUSTED_CONTENT id="${id}">>>x<<<END_EXTERNAL_UNTRUSTED_CONTENT id="${id}">>>`;
    expect(newestHashing.outcomeHash("web_fetch", {}, err(wrap("0123456789abcdef")), "text").resultHash).toBe(
      newestHashing.outcomeHash("web_fetch", {}, err(wrap("aaaaaaaaaaaaaaaa")), "text").resultHash,
    );
  });
});

describe("results", () => {
  it("an absent result has no hash; null is hashed", () => {
    expect(newestHashing.outcomeHash("read", {}, ok(undefined), "text")).toEqual({});
    expect(outcome("read", null).resultHash).toBeDefined();
  });

  it("the loop's own veto is stored as a veto kind without a hash", () => {
    const veto = outcome("read", text("blocked", { status: "blocked", deniedReason: "tool-loop" }));
    expect(veto).toEqual({ outcomeKind: "tool-loop-veto" });
  });

  it("other denials (plugin, approval) hash normally", () => {
    const denied = outcome("read", text("blocked", { status: "blocked", deniedReason: "plugin" }));
    expect(denied.resultHash).toBeDefined();
    expect(denied.outcomeKind).toBeUndefined();
  });

  it("update_plan results hash like any tool's (details and text)", () => {
    const a = outcome("update_plan", text("ok", { plan: [{ step: "a" }] }));
    const b = outcome("update_plan", text("ok", { plan: [{ step: "b" }] }));
    expect(a.resultHash).not.toBe(b.resultHash);
  });
});

describe("exec outcomes", () => {
  const exec = (details: Record<string, unknown>, t = "") => outcome("exec", text(t, details));

  it("running: hashes status and tail; a non-string tail counts as empty", () => {
    expect(exec({ status: "running", tail: 5 }).resultHash).toBe(exec({ status: "running", tail: "" }).resultHash);
    expect(exec({ status: "running", tail: "a" }).resultHash).not.toBe(exec({ status: "running", tail: "b" }).resultHash);
  });

  it("ignores volatile details (duration, pid, session, cwd, startedAt)", () => {
    const base = { status: "completed", exitCode: 0, aggregated: "done" };
    expect(exec({ ...base, durationMs: 5, pid: 1, sessionId: "s", cwd: "/a", startedAt: 1 }).resultHash).toBe(exec(base).resultHash);
  });

  it("trims the aggregated output, and uses the text when aggregated is blank", () => {
    expect(exec({ status: "completed", exitCode: 0, aggregated: "  done\n" }).resultHash).toBe(exec({ status: "completed", exitCode: 0, aggregated: "done" }).resultHash);
    expect(exec({ status: "completed", exitCode: 0, aggregated: "  " }, "done").resultHash).toBe(exec({ status: "completed", exitCode: 0, aggregated: "done" }).resultHash);
  });

  it("a non-zero exit with output is a terminal failure with a failure identity", () => {
    const failed = exec({ status: "failed", exitCode: 2, aggregated: "make: *** [all] Error 2" });
    expect(failed.outcomeKind).toBe("terminal-exec-failure");
    expect(failed.failureIdentity).toBeDefined();
  });

  it("exit code 0, a timeout, a missing exit code or empty output are not terminal failures", () => {
    expect(exec({ status: "completed", exitCode: 0, aggregated: "x" }).outcomeKind).toBeUndefined();
    expect(exec({ status: "failed", exitCode: 1, timedOut: true, aggregated: "x" }).outcomeKind).toBeUndefined();
    expect(exec({ status: "failed", aggregated: "x" }).outcomeKind).toBeUndefined();
    expect(exec({ status: "failed", exitCode: 1, aggregated: "" }).outcomeKind).toBeUndefined();
  });

  it("synthetic exit-code-only output is not a terminal failure", () => {
    expect(exec({ status: "failed", exitCode: 3, aggregated: "(Command exited with code 3)" }).outcomeKind).toBeUndefined();
    expect(exec({ status: "failed", exitCode: 3, aggregated: " (Command exited with code 3) " }).outcomeKind).toBeUndefined();
    // Another code in the synthetic text is real output.
    expect(exec({ status: "failed", exitCode: 3, aggregated: "(Command exited with code 4)" }).outcomeKind).toBe("terminal-exec-failure");
  });

  it("drifting timestamps, clock times, attempts, durations and pids keep one identity but change the hash", () => {
    const a = exec({ status: "failed", exitCode: 1, aggregated: "2026-05-01T10:00:00.123Z attempt 1 pid=4242 after 1.5s at 10:00:01: connection refused" });
    const b = exec({ status: "failed", exitCode: 1, aggregated: "2026-05-02T11:30:09.999Z attempt 2 pid=4343 after 2.25s at 11:30:10: connection refused" });
    expect(a.resultHash).not.toBe(b.resultHash);
    expect(a.failureIdentity).toBe(b.failureIdentity);
  });

  it("a bare date, an errno, an exit code or other wording is not masked", () => {
    const identity = (output: string) => exec({ status: "failed", exitCode: 1, aggregated: output }).failureIdentity;
    expect(identity("build of 2026-05-01 failed")).not.toBe(identity("build of 2026-05-02 failed"));
    expect(identity("errno 13")).not.toBe(identity("errno 14"));
    expect(identity("connection refused")).not.toBe(identity("connection reset"));
    expect(exec({ status: "failed", exitCode: 1, aggregated: "x" }).failureIdentity).not.toBe(exec({ status: "failed", exitCode: 2, aggregated: "x" }).failureIdentity);
  });

  it("approval outcomes hash status, reason, host, command and warning text", () => {
    const approval = { status: "approval-pending", reason: "r", command: "ls" };
    expect(exec(approval).resultHash).toBe(exec({ ...approval, host: 7, warningText: 3 }).resultHash);
    expect(exec(approval).resultHash).not.toBe(exec({ ...approval, command: "rm" }).resultHash);
  });
});

describe("write outcomes", () => {
  it("no-op writes share one hash whatever they echo, marked no-progress", () => {
    const a = outcome("write", text("unchanged a.txt", { changed: false, path: "a.txt" }));
    const b = outcome("write", text("unchanged b.txt", { changed: false, path: "b.txt" }));
    expect(a.resultHash).toBe(b.resultHash);
    expect(a.noProgress).toBe(true);
  });

  it("changing writes are write mutations, not no-progress", () => {
    const changed = outcome("write", text("wrote", { changed: true, path: "a.txt" }));
    expect(changed.outcomeKind).toBe("write-mutation");
    expect(changed.noProgress).toBeUndefined();
  });

  it("the mutation target is the raw path of a write", () => {
    expect(newestHashing.mutationTarget?.("write", { path: "a.txt", content: "1" }, "text")).toBe(newestHashing.mutationTarget?.("write", { path: "a.txt", content: "2" }, "text"));
    expect(newestHashing.mutationTarget?.("write", { path: "a.txt" }, "text")).not.toBe(newestHashing.mutationTarget?.("write", { path: " a.txt" }, "text"));
    expect(newestHashing.mutationTarget?.("write", { path: "" }, "text")).toBeUndefined();
    expect(newestHashing.mutationTarget?.("edit", { path: "a.txt" }, "text")).toBeUndefined();
  });
});

describe("polls and sends", () => {
  it("process polls keep a missing status distinct from null", () => {
    const poll = { action: "poll" };
    expect(outcome("process", text("", {}), poll).resultHash).not.toBe(outcome("process", text("", { status: null }), poll).resultHash);
  });

  it("sends ignore per-call message ids", () => {
    const send = { action: "send" };
    expect(outcome("message", text("sent", { messageId: "1", ok: true }), send).resultHash).toBe(outcome("message", text("sent", { messageId: "2", ok: true }), send).resultHash);
  });

  it("other message actions hash in full", () => {
    const read = { action: "read" };
    expect(outcome("message", text("x", { messageId: "1" }), read).resultHash).not.toBe(outcome("message", text("x", { messageId: "2" }), read).resultHash);
  });
});
