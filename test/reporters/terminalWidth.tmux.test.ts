/**
 * The human reports under a real terminal: the built CLI runs in a tmux pane 80 and 60 columns
 * wide, and the screen is read back twice: row by row, and with the rows the terminal wrapped
 * joined (`capture-pane -J`). Widths are the terminal's own measure, not ours: a line wider than
 * the pane is one that tmux had to wrap onto a second row, so the two captures differ there.
 * Words are checked against the same command on a 250-column pane: a word our wrapping split
 * would be a fragment found nowhere there. tmux is a system program: skipped where it is missing,
 * failed under LOOPLENS_REQUIRE_SYSTEM_TESTS=1 (systemProgram.ts).
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BASE_FIXTURES, BIN, ROOT } from "../helpers/cli.js";
import { requireProgram } from "../helpers/systemProgram.js";
import { tempDir } from "../helpers/tempDir.js";

const tmux = requireProgram("tmux", { for: "the terminal-width tests" });
/** A server of our own (no other tmux session is touched), kept up by one idle session until the end. */
const SOCKET = `looplens-test-${process.pid}`;
const DONE = "__looplens_done__";

// Its socket in a folder removed after the file (not in /tmp/tmux-<uid>, which tmux leaves behind).
let socketDir: string | undefined;
const tmuxRun = (...args: string[]) => execFileSync(tmux.path!, ["-L", SOCKET, ...args], { encoding: "utf8", env: { ...process.env, TMUX_TMPDIR: (socketDir ??= tempDir("looplens-tmux-")) } });
const quote = (arg: string) => `'${arg.replace(/'/g, "'\\''")}'`;

let sessions = 0;

/**
 * The pane's rows up to the end marker, trailing blanks trimmed; `joined`: rows tmux wrapped joined;
 * `escapes`: with the escape sequences of the cells' colours and attributes.
 */
function captured(name: string, how: { joined?: boolean; escapes?: boolean }): string[] | undefined {
  const screen = tmuxRun("capture-pane", "-p", ...(how.joined ? ["-J"] : []), ...(how.escapes ? ["-e"] : []), "-S", "-", "-E", "-", "-t", name);
  const lines = screen.split("\n").map((line) => line.trimEnd());
  const end = lines.findIndex((line) => line.includes(DONE));
  return end >= 0 ? lines.slice(0, end) : undefined;
}

/** How the CLI is started in the pane: its environment (NO_COLOR=1 unless given) and shell commands run before it. */
interface PaneRun {
  readonly env?: string;
  readonly before?: string;
}

/**
 * What the pane shows after `looplens ARGS` ran in it (logical lines: wrapped rows joined), the
 * lines the terminal had to wrap because they were wider than the pane, and the rows with their
 * colour escapes.
 */
async function onScreen(width: number, args: readonly string[], run: PaneRun = {}): Promise<{ lines: string[]; wrapped: string[]; escaped: string[] }> {
  const name = `w${width}-${++sessions}`;
  const command = `cd ${quote(ROOT)} && ${run.before ?? ""} ${run.env ?? "NO_COLOR=1"} ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(" ")}; echo ${DONE}; sleep 60`;
  tmuxRun("new-session", "-d", "-s", name, "-x", String(width), "-y", "40", command);
  try {
    for (let tries = 0; tries < 200; tries++) {
      const lines = captured(name, { joined: true });
      if (lines) return { lines, wrapped: wrappedLines(lines, captured(name, {})!), escaped: captured(name, { escapes: true })! };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`looplens ${args.join(" ")} did not finish in its pane`);
  } finally {
    tmuxRun("kill-session", "-t", name);
  }
}

/** The logical lines that took more than one row: a wrapped line is none of the rows, being longer than each. */
function wrappedLines(lines: readonly string[], rows: readonly string[]): string[] {
  const single = new Set(rows);
  return lines.filter((line) => !single.has(line));
}

const words = (lines: readonly string[]) => new Set(lines.join(" ").split(/\s+/).filter(Boolean));
/**
 * Words only a narrower table uses (shorter heads and forms; numbers and note marks are allowed too;
 * a word with `…` is clipped, or a run header's path with its middle left out).
 */
const NARROW_FORMS = new Set(["limit", "line", "1st", "changed", "warn", "block", "abort", "warning", "critical"]);

const COMMANDS: ReadonlyArray<readonly string[]> = [
  ["analyze", "--all", ...BASE_FIXTURES],
  ["analyze", "fixtures/gateway/pair"],
  ["sweep", ...BASE_FIXTURES, "--vary", "warningThreshold=10,15", "--vary", "criticalThreshold=15,25"],
  ["sweep", ...BASE_FIXTURES, "--vary", "criticalThreshold=12..24:4", "--expect-stuck", "poll-1,pingpong-1", "--expect-healthy", "exec-retry,healthy-1"],
  ["config"],
  ["config", "--profile", "newest"],
];

tmux.describe("reports under a real terminal (tmux)", () => {
  beforeAll(() => void tmuxRun("new-session", "-d", "-s", "keep", "sleep 600"));
  afterAll(() => void tmuxRun("kill-server"));

  for (const args of COMMANDS) {
    it(`looplens ${args.slice(0, 2).join(" ")}… fits 80 and 60 columns without splitting a word`, async () => {
      const reference = words((await onScreen(250, args)).lines);
      for (const width of [80, 60]) {
        const { lines, wrapped } = await onScreen(width, args);
        expect(lines.length).toBeGreaterThan(3);
        expect(wrapped, `${width} columns: lines the terminal wrapped`).toEqual([]);
        for (const word of words(lines)) {
          const whole = reference.has(word) || reference.has(word.replace(/:$/, "")) || word.includes("…") || NARROW_FORMS.has(word) || /^\(?\d+\)?$/.test(word);
          expect(whole, `${width}: "${word}" is not a word of the wide output`).toBe(true);
        }
      }
    }, 30_000);
  }

  it("a terminal that reports 0 columns is taken as 80 wide", async () => {
    const args = ["analyze", "--all", ...BASE_FIXTURES];
    const unknown = await onScreen(80, args, { before: "stty cols 0 &&" });
    expect(unknown.wrapped).toEqual([]);
    expect(unknown.lines).toEqual((await onScreen(80, args)).lines);
  }, 30_000);

  it("no colour escapes under FORCE_COLOR=0 or TERM=dumb; colour otherwise", async () => {
    const ESCAPE = "\u001b[";
    const escapes = async (env: string) => (await onScreen(100, ["analyze", "fixtures/poll-loop.jsonl"], { env: `NO_COLOR= ${env}` })).escaped.join("\n").split(ESCAPE).length - 1;
    expect(await escapes("")).toBeGreaterThan(0);
    expect(await escapes("FORCE_COLOR=0")).toBe(0);
    expect(await escapes("TERM=dumb")).toBe(0);
  }, 30_000);

  it("the table keeps file:line openable: in its column when it fits, else at the start of the explanation", async () => {
    const wide = (await onScreen(160, ["analyze", "fixtures/poll-loop.jsonl"])).lines.join("\n");
    expect(wide).toMatch(/\n 11–20 fixtures\/poll-loop\.jsonl:22 +command_status +known_poll_no_progress +warning ×10 +10–19 +warningThreshold=10\n/);
    const narrow = (await onScreen(60, ["analyze", "fixtures/poll-loop.jsonl"])).lines.join("\n");
    expect(narrow).toContain("\n       fixtures/poll-loop.jsonl:22:\n       command_status(commandId=build-42) returned");
  }, 30_000);
});
