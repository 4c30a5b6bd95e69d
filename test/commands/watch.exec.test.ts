/**
 * `looplens watch --exec -- CMD [ARG…]`: the command runs for each finding at or above
 * `--notify-on`, with the finding on stdin and in LOOPLENS_* variables, never through a shell, and
 * a slow or failing command is reported without holding up the watch.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { isReady, killWatchChildren, sleep, startWatch, watchFolder } from "../helpers/watchChild.js";

afterEach(killWatchChildren);

const PING_PONG = readFileSync("fixtures/ping-pong.jsonl", "utf8");
const POLL_LOOP = readFileSync("fixtures/poll-loop.jsonl", "utf8");

/** A command that appends what it was given (argv, LOOPLENS_* variables, stdin) to `out` as one JSON line. */
function recorder(folder: string, out: string): string {
  const script = join(folder, "record.mjs");
  writeFileSync(
    script,
    `import { appendFileSync } from "node:fs";
let stdin = "";
process.stdin.setEncoding("utf8").on("data", (chunk) => (stdin += chunk)).on("end", () => {
  // The finding's variables: those the test run itself set (a cache folder, LOOPLENS_REQUIRE_SYSTEM_TESTS) are inherited, not looplens's.
  const inherited = new Set(${JSON.stringify(Object.keys(process.env).filter((key) => key.startsWith("LOOPLENS_")))});
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith("LOOPLENS_") && !inherited.has(key)));
  appendFileSync(${JSON.stringify(out)}, JSON.stringify({ argv: process.argv.slice(2), env, stdin }) + "\\n");
});
`,
  );
  return script;
}

const records = (out: string) =>
  existsSync(out)
    ? readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { argv: string[]; env: Record<string, string>; stdin: string })
    : [];

async function until(test: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !test(); await sleep(50)) if (Date.now() > end) throw new Error("timed out");
}

/** A watch of a new folder whose --exec command records each call into `out`; `options` before --exec, `extra` after the recorder. */
async function recordingWatch(options: string[], extra: string[] = []) {
  const root = watchFolder();
  const tools = watchFolder();
  const out = join(tools, "calls.ndjson");
  const watch = startWatch([root, "-f", "ndjson", ...options, "--exec", "--", process.execPath, recorder(tools, out), ...extra]);
  await watch.waitFor(isReady);
  return { root, tools, out, watch };
}

describe("watch --exec", () => {
  it("runs the command per critical finding: the finding on stdin, LOOPLENS_* set, arguments as given, no shell", async () => {
    const { root, tools, out } = await recordingWatch([], ["$(touch PWNED)", "a;b"]);
    // A file name that a shell would run: `;` and `$(…)`.
    const hostile = "x; touch PWNED2 $(touch PWNED3).jsonl";
    writeFileSync(join(root, hostile), PING_PONG);
    await until(() => records(out).length === 1);
    await sleep(300);
    const [call] = records(out);
    expect(records(out)).toHaveLength(1); // notify-on critical: the block only, not the ten warnings
    expect(call!.argv).toEqual(["$(touch PWNED)", "a;b"]);
    expect(call!.env).toEqual({
      LOOPLENS_RUN: "pingpong-1",
      LOOPLENS_LEVEL: "critical",
      LOOPLENS_DETECTOR: "ping_pong",
      LOOPLENS_TOOL: "read",
      LOOPLENS_FILE: join(root, hostile),
      LOOPLENS_LINE: "40",
    });
    const finding = JSON.parse(call!.stdin);
    expect(call!.stdin.endsWith("}\n")).toBe(true);
    expect(finding).toMatchObject({ run: "pingpong-1", call: 20, level: "critical", file: join(root, hostile) });
    expect(typeof finding.observedAt).toBe("string");
    for (const name of ["PWNED", "PWNED2", "PWNED3"]) {
      expect(existsSync(join(ROOT, name))).toBe(false);
      expect(existsSync(join(root, name))).toBe(false);
      expect(existsSync(join(tools, name))).toBe(false);
    }
  });

  it("--notify-on warning runs it for warnings too", async () => {
    const { root, out } = await recordingWatch(["--notify-on", "warning"]);
    writeFileSync(join(root, "s.jsonl"), PING_PONG);
    // Eleven commands one after another, a Node start each: time for a loaded machine.
    await until(() => records(out).length === 11, 40_000);
    expect(records(out).map((r) => r.env.LOOPLENS_LEVEL)).toEqual([...Array(10).fill("warning"), "critical"]);
  }, 60_000);

  it("a command slower than --exec-timeout is killed and said; the watch goes on", async () => {
    const root = watchFolder();
    const watch = startWatch([root, "-f", "ndjson", "--exec-timeout", "300", "--exec", "--", process.execPath, "-e", "setTimeout(() => {}, 30000)"]);
    await watch.waitFor(isReady);
    writeFileSync(join(root, "a.jsonl"), PING_PONG);
    await until(() => /timed out after 300 ms and was killed \(for pingpong-1 call 20/.test(watch.stderr()));
    writeFileSync(join(root, "b.jsonl"), POLL_LOOP);
    await watch.waitFor((line) => line.includes("b.jsonl") && line.includes('"level":"critical"'));
  });

  it("a failing command is said, with its status; one that cannot start too", async () => {
    const root = watchFolder();
    const failing = startWatch([root, "-f", "ndjson", "--exec", "--", process.execPath, "-e", "process.exit(3)"]);
    const missing = startWatch([root, "-f", "ndjson", "--exec", "--", join(root, "no-such-command")]);
    await failing.waitFor(isReady);
    await missing.waitFor(isReady);
    writeFileSync(join(root, "a.jsonl"), PING_PONG);
    await until(() => /--exec: .* exited with status 3 \(for pingpong-1 call 20 \(ping_pong critical\)\)/.test(failing.stderr()));
    await until(() => /--exec: .*no-such-command could not be started \(ENOENT\)/.test(missing.stderr()));
  });

  it("--exit-on waits for the finding's command before exiting", async () => {
    const { root, out, watch } = await recordingWatch(["--exit-on", "critical"]);
    writeFileSync(join(root, "s.jsonl"), PING_PONG);
    expect((await watch.exited()).code).toBe(1);
    expect(records(out)).toHaveLength(1);
  });
});
