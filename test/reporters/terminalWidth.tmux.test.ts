/**
 * The human reports under a real terminal: the built CLI runs in a tmux pane 80 and 60 columns
 * wide, and the screen is read back with wrapped lines joined (`capture-pane -J`), so a line the
 * terminal had to wrap shows up as longer than the pane. Words are checked against the same
 * command on a 250-column pane: a word our wrapping split would be a fragment found nowhere there.
 * Skipped where tmux is not installed (`apt-get install tmux`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { displayWidth } from "../../src/reporters/textFit.js";
import { BASE_FIXTURES, BIN, ROOT } from "../helpers/cli.js";

const HAS_TMUX = spawnSync("tmux", ["-V"]).status === 0;
/** A server of our own (no other tmux session is touched), kept up by one idle session until the end. */
const SOCKET = `looplens-test-${process.pid}`;
const DONE = "__looplens_done__";

const tmux = (...args: string[]) => execFileSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8" });
const quote = (arg: string) => `'${arg.replace(/'/g, "'\\''")}'`;

let sessions = 0;

/** What the pane shows after `looplens ARGS` ran in it, wrapped lines joined, trailing blanks trimmed. */
async function onScreen(width: number, args: readonly string[]): Promise<string[]> {
  const name = `w${width}-${++sessions}`;
  const command = `cd ${quote(ROOT)} && NO_COLOR=1 ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(" ")}; echo ${DONE}; sleep 60`;
  tmux("new-session", "-d", "-s", name, "-x", String(width), "-y", "40", command);
  try {
    for (let tries = 0; tries < 200; tries++) {
      const screen = tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", name);
      const lines = screen.split("\n").map((line) => line.trimEnd());
      const end = lines.indexOf(DONE);
      if (end >= 0) return lines.slice(0, end);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`looplens ${args.join(" ")} did not finish in its pane`);
  } finally {
    tmux("kill-session", "-t", name);
  }
}

const words = (lines: readonly string[]) => new Set(lines.join(" ").split(/\s+/).filter(Boolean));
/** Words only a narrower table uses (shorter heads and forms; numbers and note marks are allowed too). */
const NARROW_FORMS = new Set(["limit", "line", "1st", "changed", "warn", "block", "abort", "warning", "critical"]);

const COMMANDS: ReadonlyArray<readonly string[]> = [
  ["analyze", "--all", ...BASE_FIXTURES],
  ["analyze", "fixtures/gateway/pair"],
  ["sweep", ...BASE_FIXTURES, "--vary", "warningThreshold=10,15", "--vary", "criticalThreshold=15,25"],
  ["sweep", ...BASE_FIXTURES, "--vary", "criticalThreshold=12..24:4", "--expect-stuck", "poll-1,pingpong-1", "--expect-healthy", "exec-retry,healthy-1"],
  ["config"],
  ["config", "--profile", "newest"],
];

// Without tmux this fails, saying how to install it, rather than passing without having looked.
it("has tmux to run the terminal-width tests", () => {
  if (!HAS_TMUX) throw new Error("tmux is not installed: the terminal-width tests need it (apt-get install -y tmux, as .ci/run does)");
});

describe.skipIf(!HAS_TMUX)("reports under a real terminal (tmux)", () => {
  beforeAll(() => void tmux("new-session", "-d", "-s", "keep", "sleep 600"));
  afterAll(() => void tmux("kill-server"));

  for (const args of COMMANDS) {
    it(`looplens ${args.slice(0, 2).join(" ")}… fits 80 and 60 columns without splitting a word`, async () => {
      const reference = words(await onScreen(250, args));
      for (const width of [80, 60]) {
        const lines = await onScreen(width, args);
        expect(lines.length).toBeGreaterThan(3);
        for (const line of lines) expect(displayWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
        for (const word of words(lines)) {
          const whole = reference.has(word) || reference.has(word.replace(/:$/, "")) || word.endsWith("…") || NARROW_FORMS.has(word) || /^\(?\d+\)?$/.test(word);
          expect(whole, `${width}: "${word}" is not a word of the wide output`).toBe(true);
        }
      }
    }, 30_000);
  }

  it("the table keeps file:line openable: in its column when it fits, else at the start of the explanation", async () => {
    const wide = (await onScreen(160, ["analyze", "fixtures/poll-loop.jsonl"])).join("\n");
    expect(wide).toMatch(/\n 11–20 fixtures\/poll-loop\.jsonl:22 +command_status +known_poll_no_progress +warning ×10 +10–19 +warningThreshold=10\n/);
    const narrow = (await onScreen(60, ["analyze", "fixtures/poll-loop.jsonl"])).join("\n");
    expect(narrow).toContain("\n       fixtures/poll-loop.jsonl:22:\n       command_status(commandId=build-42) returned");
  }, 30_000);
});
