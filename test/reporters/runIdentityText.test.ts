/** A run's identity as the human formats write it: local time, durations, and paths fitted to a width. */
import { describe, expect, it } from "vitest";
import { headerPath, headerSession } from "../../src/reporters/runFacts.js";
import { durationText, identityParts, localTime } from "../../src/reporters/runIdentityText.js";
import { displayWidth, elideMiddle } from "../../src/reporters/textFit.js";

describe("run identity text", () => {
  it("says durations in their two largest units", () => {
    expect([850, 12_400, 192_000, 7_500_000, 277_200_000].map(durationText)).toEqual(["850ms", "12s", "3m 12s", "2h 05m", "3d 5h"]);
  });

  it("writes the start in the machine's local time", () => {
    const iso = "2026-04-14T07:05:52.768Z";
    const at = new Date(iso);
    expect(localTime(iso)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:52$/);
    expect(localTime(iso).slice(11, 13)).toBe(String(at.getHours()).padStart(2, "0"));
    expect(localTime("not a date")).toBe("not a date");
  });

  it("leaves out what was not recorded", () => {
    const none = { startedAt: null, endedAt: null, durationMs: null, prompt: null, channel: null, model: null, outcome: null };
    expect(identityParts(none)).toEqual([]);
    expect(identityParts({ ...none, durationMs: 3000, channel: "cron", outcome: { kind: "error", message: "400" } })).toEqual(["3s", "cron", "ended error: 400"]);
  });

  it("elides the middle of a long text, keeping more of its end", () => {
    const path = "/home/user/.openclaw/agents/main/sessions/0ff7b343-fcdb-4bc2-8504-ccc296c7e85b.jsonl";
    const cut = elideMiddle(path, 40);
    expect(displayWidth(cut)).toBe(40);
    expect(cut.startsWith("/home/user/")).toBe(true);
    expect(cut.endsWith("ccc296c7e85b.jsonl")).toBe(true);
    // Wide characters take two columns: the cut never splits one.
    expect(elideMiddle("短い道のりです", 9)).toBe("短…りです");
  });

  it("shortens a header's path from home or the state directory, then the session id in its name, then its folders", () => {
    const session = "0ff7b343-fcdb-4bc2-8504-ccc296c7e85b";
    const file = `/home/u/.openclaw/agents/main/sessions/${session}.jsonl.reset.2026-04-15T01-31-58.122Z`;
    expect(headerPath(file, session, { cwd: "/srv", home: "/home/u" }, 200)).toBe(`~/.openclaw/agents/main/sessions/${session}.jsonl.reset.2026-04-15T01-31-58.122Z`);
    const stateFile = `/var/lib/openclaw-gateway/state/agents/main/sessions/${session}.jsonl`;
    expect(headerPath(stateFile, session, { cwd: "/srv", stateDir: "/var/lib/openclaw-gateway/state" }, 200)).toBe(`$OPENCLAW_STATE_DIR/agents/main/sessions/${session}.jsonl`);
    expect(headerPath(file, session, { cwd: "/home/u/.openclaw/agents/main" }, 200)).toBe(`sessions/${session}.jsonl.reset.2026-04-15T01-31-58.122Z`);
    const fitted = headerPath(file, session, { cwd: "/srv", home: "/home/u" }, 60);
    expect(displayWidth(fitted)).toBeLessThanOrEqual(60);
    expect(fitted.endsWith("0ff7b343….jsonl.reset.2026-04-15T01-31-58.122Z")).toBe(true);
    expect(displayWidth(headerPath(file, session, {}, 30))).toBeLessThanOrEqual(30);
  });

  it("cuts a session to 8 characters only where the file's name shows it whole", () => {
    const session = "0ff7b343-fcdb-4bc2-8504-ccc296c7e85b";
    expect(headerSession(session, `/x/${session}.jsonl`)).toBe("0ff7b343");
    expect(headerSession(session, "/x/export.jsonl")).toBe(session);
    expect(headerSession("s1", "/x/s1.jsonl")).toBe("s1");
  });
});
