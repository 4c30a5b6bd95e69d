/**
 * `looplens watch [paths…]`: a watchdog beside a running agent (watch.md §1). It follows the inputs
 * `analyze` would read (default: the OpenClaw state directory) and prints each new finding as it
 * happens — exactly `analyze`'s findings over each session's life (pipeline/watch/unitFollower.ts).
 *
 * Decisions where the spec is silent:
 * - `--format table` (the default) or `ndjson`; the "watching …" line goes to stderr in both, so
 *   that stdout stays pure ndjson (which opens with its own `watching` line: watchNdjson.ts).
 * - Filters: `--run`, `--session`, `--agent`, `--tool`, `--detector` select the findings printed
 *   (and counted); `--agent` also applies that agent's override, as in analyze, but always filters
 *   (a watch cannot know that no run will ever be that agent's). `--since`/`--until`/`--top` are
 *   report-wide and do not apply to a stream.
 * - `--exec` takes the command after `--` (`looplens watch --exec -- notify-send looplens`);
 *   `--exec-timeout MS` (default 10 s) bounds each run. `--exit-on` stops at the first such finding
 *   printed, once its `--exec` command ran. `--strict` is analyze's exit rule at the end of input:
 *   a watch has no end of input, so it is not offered.
 * - Ctrl-C / SIGTERM: the summary (on stdout for a person; a `summary` line in ndjson, the text on
 *   stderr), exit 0.
 */
import { homedir } from "node:os";
import type { Command } from "commander";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { LEVEL_RANK, type Finding } from "../core/findings.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { EXIT, UsageError } from "../pipeline/errors.js";
import { findingFilter } from "../pipeline/findingFilter.js";
import { stateInputs } from "../pipeline/stateDirectory.js";
import { tuneHeapForStreaming } from "../pipeline/v8Tuning.js";
import { agentHomePaths } from "../pipeline/agentHomes.js";
import { FindingCommand } from "../pipeline/watch/findingCommand.js";
import { WatchInputs } from "../pipeline/watch/watchInputs.js";
import { WatchSession } from "../pipeline/watch/watchSession.js";
import { InputError } from "../adapters/io/lineSource.js";
import { publicFinding } from "../reporters/findingGroups.js";
import { jsonText } from "../reporters/jsonText.js";
import { sanitize } from "../reporters/sanitize.js";
import { reportNotices, type CommonOptions, type Io } from "./common.js";
import { reportFilters, type FilterOptions } from "./filterOptions.js";
import { useColor, type OutputOptions } from "./output.js";
import { WatchOutput } from "./watchOutput.js";
import { LEVEL_OF, type LevelChoice } from "./watchLevels.js";


export interface WatchOptions extends CommonOptions, FilterOptions, OutputOptions {
  format: "table" | "ndjson";
  fromStart?: boolean;
  poll?: number;
  exec?: boolean;
  execTimeout: number;
  notifyOn: LevelChoice;
  exitOn?: LevelChoice;
  explain?: boolean;
}

/** What to watch: the paths given, the agents' homes, or the state directory; and its name for the first line. */
function watchedPaths(paths: readonly string[], options: WatchOptions, io: Io): { paths: string[]; label: string } {
  const home = io.env.HOME || homedir();
  const tilde = (path: string) => sanitize(path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);
  const named = (list: readonly string[]) => (list.length <= 3 ? list.map(tilde).join(", ") : `${list.slice(0, 3).map(tilde).join(", ")} and ${list.length - 3} more`);
  if ((options.agentHome ?? []).length > 0) {
    const all = [...paths, ...agentHomePaths(options.agentHome!, io.env)];
    return { paths: all, label: named(all) };
  }
  if (paths.length > 0) return { paths: [...paths], label: named(paths) };
  const state = stateInputs(io.env);
  if (state.paths.length === 0) throw new InputError(`no path given, and the OpenClaw state directory ${state.dir} holds no agents/ folder: name the files or folders to watch`);
  return { paths: state.paths, label: tilde(state.dir) };
}

/** The command after `--` when `--exec` is given (commander hands it over as more paths). */
function execCommand(paths: string[], options: WatchOptions, command: Command): { paths: string[]; exec: string[] | undefined } {
  if (options.exec !== true) return { paths, exec: undefined };
  // The program's argv as parsed (commander keeps it, untyped): where `--` is tells the command apart.
  const raw = (command.parent as unknown as { rawArgs?: string[] } | null)?.rawArgs ?? [];
  const dashes = raw.indexOf("--", Math.max(0, raw.indexOf("watch")));
  const exec = dashes >= 0 ? raw.slice(dashes + 1) : [];
  if (exec.length === 0) throw new UsageError("--exec needs the command after --, e.g. looplens watch --exec -- notify-send looplens");
  return { paths: paths.slice(0, Math.max(0, paths.length - exec.length)), exec };
}

export async function runWatch(given: string[], options: WatchOptions, io: Io, command: Command): Promise<number> {
  // Memory as analyze's: each unit's analysis makes short-lived garbage (v8Tuning.ts); the watch
  // reads existing content first, as analyze reads a folder.
  // The heap's growth is held once the watch is large: checked after each analysis (watchSession.ts).
  tuneHeapForStreaming();
  return watchUntilStopped(given, options, io, command);
}

async function watchUntilStopped(given: string[], options: WatchOptions, io: Io, command: Command): Promise<number> {
  const { paths: named, exec } = execCommand(given, options, command);
  const { paths, label } = watchedPaths(named, options, io);
  const inputs = new WatchInputs(paths);
  const resolver = await createConfigResolver({ config: options.config, agent: options.agent, set: options.set, profile: options.profile }, io.env);
  reportNotices(io, resolver, options.quiet);
  const digest = await loadXxhashDigest();
  const configFor = (agent: string | null, profile: ProfileName) => resolver.effectiveFor(agent, profile).config;
  let session: WatchSession | undefined;
  const output = new WatchOutput(io, { format: options.format, color: useColor(options, io), explain: options.explain !== false, quiet: options.quiet === true, label, stats: () => session!.stats() });
  const notifier = exec && new FindingCommand({
    command: exec[0]!,
    args: exec.slice(1),
    timeoutMs: options.execTimeout,
    queueLimit: 64,
    env: io.env,
    onNotice: (text) => output.write({ type: "notice", text }),
    onOutput: (chunk) => io.stderr(chunk.toString()),
  });
  const notifyFloor = LEVEL_RANK[LEVEL_OF[options.notifyOn]];
  const exitFloor = options.exitOn === undefined ? Infinity : LEVEL_RANK[LEVEL_OF[options.exitOn]];
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let exitOnHit: Finding | undefined;
  session = new WatchSession({
    inputs,
    digest,
    configFor,
    analysis: { inputFormat: options.inputFormat, activeBranch: options.activeBranch, maxLineBytes: options.maxLineBytes, ...(options.profile !== undefined && { profile: options.profile }) },
    fromStart: options.fromStart === true,
    ...(options.poll !== undefined && { pollMs: options.poll }),
    keep: findingFilter(reportFilters(options, new Date())),
    sink: (event) => {
      if (exitOnHit) return; // stopping: nothing after the finding that stops the watch
      output.write(event);
      if (event.type !== "finding") return;
      const rank = LEVEL_RANK[event.finding.level];
      if (notifier && rank >= notifyFloor) notifier.submit(event.finding, `${jsonText({ ...publicFinding(event.finding), observedAt: new Date().toISOString() })}\n`);
      if (rank >= exitFloor) {
        exitOnHit = event.finding;
        finish(EXIT.findings);
      }
    },
  });
  const onSignal = () => finish(EXIT.ok);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await Promise.race([session.start(), finished]);
    const code = await finished;
    session.stop();
    if (code === EXIT.ok) {
      notifier?.close();
      output.summary();
    } else {
      await notifier?.drain();
      output.close();
      if (!options.quiet) io.stderr(`looplens: stopped at the first finding at or above ${options.exitOn} (--exit-on)\n`);
    }
    return code;
  } finally {
    session.stop();
    notifier?.close();
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
}

