/** `looplens watch`'s flags and help; what it runs (watch.ts) is loaded when it runs (cli.ts). */
import { Option, type Command } from "commander";
import { UsageError } from "../pipeline/errors.js";
import { addConfigOptions, addInputOptions, type CommandRunner, type Io } from "./common.js";
import { addFilterOptions } from "./filterOptions.js";
import { addOutputOptions, withOutput } from "./output.js";
import type { WatchOptions } from "./watch.js";
import { LEVELS } from "./watchLevels.js";

const whole = (what: string, min: number) => (value: string) => {
  if (!/^\d+$/.test(value.trim()) || Number(value) < min) throw new UsageError(`${what}: expected a whole number of milliseconds, ${min} or more`);
  return Number(value);
};

export function registerWatch(program: Command, io: Io, run: CommandRunner): void {
  const command = program
    .command("watch")
    .description("follow transcripts as they are written and print each new finding as it happens (a watchdog beside a running agent)")
    .argument("[paths...]", "transcript files or folders (default: the OpenClaw state directory); with --exec, the command follows --")
    .addOption(new Option("-f, --format <format>", "table (blocks for a person, a status line on a terminal) or ndjson (analyze's finding lines plus observedAt, and typed lines: watching, ready, run_named, finding_revised, file_renamed, summary)").choices(["table", "ndjson"]).default("table"))
    .option("--from-start", "print the findings of existing content too (by default it is read silently, and only new findings print)")
    .option("--poll <ms>", "poll every MS milliseconds instead of using inotify (network file systems)", whole("--poll", 10))
    .option("--exec", "run the command given after -- for each finding at or above --notify-on: the finding as one JSON line on its stdin, LOOPLENS_RUN, LOOPLENS_LEVEL, LOOPLENS_DETECTOR, LOOPLENS_TOOL, LOOPLENS_FILE, LOOPLENS_LINE in its environment; never through a shell")
    .addOption(new Option("--notify-on <level>", "the lowest level --exec runs for").choices(LEVELS).default("critical"))
    .option("--exec-timeout <ms>", "kill an --exec command running longer than this", whole("--exec-timeout", 1), 10_000)
    .addOption(new Option("--exit-on <level>", "exit 1 at the first new finding at or above this level").choices(LEVELS))
    .option("--no-explain", "no plain-words line under each finding");
  addFilterOptions(command, { findings: true });
  addOutputOptions(command);
  addConfigOptions(command, "apply this agent's loopDetection override to every run, and print only the findings of this agent's runs (its id, ID/… sub-agents, or the kind: openclaw, claude-code, codex, gemini-cli, openhands)");
  addInputOptions(command);
  // Report-wide selections and analyze's end-of-input exit rule have no meaning for a stream.
  for (const flag of ["--since", "--until", "--top", "--sort", "--strict"]) {
    const at = command.options.findIndex((option) => option.long === flag);
    if (at >= 0) (command.options as unknown[]).splice(at, 1);
  }
  command.addHelpText(
    "after",
    [
      "",
      "A line counts once it ends (at its newline): a line still being written is held. Over a session's",
      "life the findings printed are exactly analyze's on the final files; a run named after its findings",
      "were printed (OpenClaw writes a run's name after the run) is told in one line, never by printing",
      "the findings again. Examples:",
      "  looplens watch --exec -- notify-send looplens",
      "  looplens watch -f ndjson | jq 'select(.level == \"critical\")'",
      "",
    ].join("\n"),
  );
  command.action((paths: string[], options: WatchOptions, self: Command) => run(() => withOutput(io, options, async (out) => (await import("./commandWork.js")).runWatch(paths, options, out, self), paths)));
}
