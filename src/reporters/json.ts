/** `--format json`: one document with config, summary, runs (with findings) and diagnostics. */
import { configEntries } from "../core/config.js";
import { compareReplayWithLive } from "./comparison.js";
import { publicFinding, summarize, type Reporter } from "./reportData.js";

export const jsonReporter: Reporter = (data) => {
  const { config } = data;
  const effective = config.effective;
  const document = {
    version: data.version,
    config: {
      ...effective,
      // `enabled` unset reads as the runtime's default (false); `rollingDetectors` says what ran.
      enabled: effective.enabled ?? false,
      rollingDetectors: effective.enabled === true,
      postCompactionGuardActive: effective.enabled !== false,
      file: config.file,
      looplensDefault: config.usesLooplensDefault,
      agentOverrides: config.agentOverrides,
      sources: Object.fromEntries(configEntries(effective).map(([key]) => [key, config.sources[key] ?? "default"])),
      notices: config.notices.map((n) => ({ origin: n.origin, key: n.key, message: n.message })),
    },
    summary: summarize(data),
    runs: data.runs.map((run) => ({
      run: run.run,
      agent: run.agent,
      session: run.session,
      file: run.file,
      calls: run.calls,
      compactions: run.compactions,
      firstStop: run.firstStop,
      recordedVetoes: run.recordedVetoes,
      guardWindows: run.guardWindows,
      ...(run.source ? { source: run.source, live: run.live } : {}),
      findings: run.findings.map(publicFinding),
    })),
    ...(data.liveFindings ? { liveFindings: data.liveFindings.map(publicFinding), comparison: compareReplayWithLive(data.runs) } : {}),
    diagnostics: data.diagnostics.map((d) => ({ file: d.file, line: d.line, reason: d.reason })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
};
