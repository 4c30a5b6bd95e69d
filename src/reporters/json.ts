/** `--format json`: one document with config, summary, runs (with findings) and diagnostics. */
import { configEntries } from "../core/config.js";
import { publicFinding, summarize, type ConfigSummary, type Reporter } from "./reportData.js";

/** The `config` block of a json document: effective values, where they came from, notices. */
export function configDocument(config: ConfigSummary): Record<string, unknown> {
  const effective = config.effective;
  return {
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
  };
}

export const jsonReporter: Reporter = (data) => {
  const document = {
    version: data.version,
    config: configDocument(data.config),
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
      findings: run.findings.map(publicFinding),
    })),
    ...(data.liveFindings ? { liveFindings: data.liveFindings.map(publicFinding) } : {}),
    diagnostics: data.diagnostics.map((d) => ({ file: d.file, line: d.line, reason: d.reason })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
};
