/**
 * `--format sarif`: SARIF 2.1.0 (OASIS), which GitHub code scanning, Azure DevOps and SARIF viewers
 * read. One result per table row (ciRows.ts: repeated verdicts of one pattern collapse; `--verbose`
 * gives one per verdict), with:
 * - `ruleId` the detector, and a rule per detector in `tool.driver.rules` from the one detector table
 *   (core/detectorInfo.ts), its thresholds' names in its properties and their values under this
 *   config in `defaultConfiguration.parameters`;
 * - `level` "warning" for a warning, "error" for a block (critical verdict) or an abort;
 * - the transcript line as the physical location: a relative URI against `%SRCROOT%` (the working
 *   directory, which `originalUriBaseIds` names) for files inside it, a `file:` URI for others;
 * - the row's explanation line as the message, and a `partialFingerprints` entry stable across runs
 *   and machines (ciRows.ts).
 * The effective config and the summary are the run's properties; skipped lines and unreadable files
 * are the invocation's notifications. Written a result per line.
 */
import { pathToFileURL } from "node:url";
import type { ResolvedConfig } from "../core/config.js";
import { DETECTORS, type DetectorInfo } from "../core/detectorInfo.js";
import type { DetectorName, ThresholdName } from "../core/detectors.js";
import type { FindingLevel } from "../core/findings.js";
import { jsonRowItems, repositoryPath, type CiRow } from "./ciRows.js";
import { configDocument } from "./json.js";
import { jsonText } from "./jsonText.js";
import type { Reporter, ReportModel, WriteOptions } from "./model.js";
import { summaryDocument } from "./usageJson.js";
import { clip, ID_WIDTH } from "./sanitize.js";

const SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/** package.json names no repository: the package's page is where looplens is described. */
const INFORMATION_URI = "https://www.npmjs.com/package/looplens";
/** Relative artifact URIs resolve against the working directory, named by this base id. */
const SRCROOT = "%SRCROOT%";
/** The partialFingerprints key: versioned, so that a change of what it hashes is a new key. */
const FINGERPRINT_KEY = "looplensFinding/v1";
/** Input strings shown in a result's properties (tool names, ids) are cut to this, as in the table. */
const TEXT_WIDTH = 1000;

const LEVEL: Readonly<Record<FindingLevel, "warning" | "error">> = { warning: "warning", critical: "error", abort: "error" };

export const sarifReporter: Reporter = function* (data, options) {
  const ruleIndex = new Map(DETECTORS.map((detector, index) => [detector.name, index]));
  const head = {
    $schema: SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "looplens", version: data.version, semanticVersion: data.version, informationUri: INFORMATION_URI, rules: DETECTORS.map((d) => rule(d, data.config.effective)) } },
        invocations: [invocation(data, options.cwd)],
        ...(options.cwd !== undefined && { originalUriBaseIds: { [SRCROOT]: { uri: directoryUri(options.cwd) } } }),
        // The summary as the JSON document writes it (its usage in the public shape, not the report model's sums).
        properties: { config: configDocument(data.config), summary: summaryDocument(data.summary) },
        results: [],
      },
    ],
  };
  // The head without its closing `]}]}`: the results go where the empty array stood.
  const text = jsonText(head, "  ");
  const open = text.lastIndexOf("[]") + 1;
  yield text.slice(0, open);
  const count = yield* jsonRowItems(data, options, (row) => result(row, ruleIndex.get(row.group.first.detector)!), "        ");
  yield `${count > 0 ? "\n      " : ""}${text.slice(open)}\n`;
};

function result(row: CiRow, ruleIndex: number): Record<string, unknown> {
  const { group } = row;
  const { first, last } = group;
  return {
    ruleId: first.detector,
    ruleIndex,
    level: LEVEL[first.level],
    message: { text: row.message },
    locations: [{ physicalLocation: physicalLocation(row.path, first.line) }],
    partialFingerprints: { [FINGERPRINT_KEY]: row.fingerprint },
    ...(group.verdicts > 1 && { occurrenceCount: group.verdicts }),
    properties: {
      run: first.run === null ? null : clip(first.run, ID_WIDTH),
      agent: first.agent === null ? null : clip(first.agent, ID_WIDTH),
      session: first.session === null ? null : clip(first.session, ID_WIDTH),
      tool: clip(first.tool, TEXT_WIDTH),
      // looplens's own level words: `critical` is a block (cli.md).
      level: first.level,
      calls: { first: first.call, last: last.call },
      verdicts: group.verdicts,
      count: { min: group.minCount, max: group.maxCount },
      threshold: { name: first.threshold.name, value: first.threshold.value },
      afterStop: first.afterStop,
      ...(first.source !== undefined && { source: first.source }),
    },
  };
}

function physicalLocation(path: string, line: number): Record<string, unknown> {
  return { artifactLocation: artifactLocation(path), region: { startLine: Math.max(1, line) } };
}

/** Standard input has no URI: the location says what it was. */
function artifactLocation(path: string): Record<string, unknown> {
  if (path === "-") return { description: { text: "standard input" } };
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return { uri: pathToFileURL(path.toWellFormed()).href };
  // Each segment percent-encoded (spaces, `#`, `?`, `%`, `:`, non-ASCII), so the URI is a valid relative reference.
  return { uri: path.split("/").map((segment) => encodeURIComponent(segment.toWellFormed())).join("/"), uriBaseId: SRCROOT };
}

/** A directory's `file:` URI ends in `/`, so that relative references resolve inside it. */
function directoryUri(cwd: string): string {
  const uri = pathToFileURL(cwd.toWellFormed()).href;
  return uri.endsWith("/") ? uri : `${uri}/`;
}

/** What a detector is, as a SARIF rule. */
function rule(detector: DetectorInfo, config: ResolvedConfig): Record<string, unknown> {
  const thresholds = [detector.warning, detector.stop].filter((t): t is ThresholdName => t !== undefined);
  const meaning = detector.meaning.charAt(0).toUpperCase() + detector.meaning.slice(1);
  return {
    id: detector.name,
    name: ruleName(detector.name),
    shortDescription: { text: `${meaning}.` },
    fullDescription: { text: `${meaning}: OpenClaw's ${detector.name} loop detector, replayed offline over a recorded transcript. ${actsText(detector)}` },
    help: {
      text: `Run \`looplens explain FILE:LINE\` on the finding's location to see the calls the detector counted. If the loop is expected, raise ${thresholds.join(" or ")} (--set, or tools.loopDetection in openclaw.json).`,
      markdown: `Run \`looplens explain FILE:LINE\` on the finding's location to see the calls the detector counted. If the loop is expected, raise ${thresholds.map((t) => `\`${t}\``).join(" or ")} (\`--set\`, or \`tools.loopDetection\` in \`openclaw.json\`).`,
    },
    defaultConfiguration: {
      level: detector.warning !== undefined ? "warning" : "error",
      parameters: Object.fromEntries(thresholds.map((t) => [t, thresholdValue(config, t)])),
    },
    properties: {
      tags: ["loop-detection", "openclaw"],
      ...(detector.warning !== undefined && { warningThreshold: detector.warning }),
      ...(detector.stop !== undefined && { stopThreshold: detector.stop }),
      generations: detector.generations,
    },
  };
}

/** `ping_pong` → `PingPong`: SARIF's rule names are identifiers, the id stays the detector's. */
const ruleName = (name: DetectorName) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** When the detector acts, by its thresholds' names: the post-compaction guard aborts the run, the others block the call. */
function actsText(detector: DetectorInfo): string {
  const acts: string[] = [];
  if (detector.warning !== undefined) acts.push(`warns when its count reaches ${detector.warning}`);
  if (detector.stop !== undefined) acts.push(`${detector.stop === "postCompactionGuard.windowSize" ? "aborts the run" : "blocks the call"} at ${detector.stop}`);
  return `It ${acts.join(" and ")}.`;
}

function thresholdValue(config: ResolvedConfig, name: ThresholdName): number {
  return name === "postCompactionGuard.windowSize" ? config.postCompactionGuard.windowSize : config[name];
}

/**
 * The run's one invocation: it completed; skipped lines and unreadable inputs (diagnostics, as on
 * stderr, unreadable files among them) are its notifications.
 */
function invocation(data: ReportModel, cwd: WriteOptions["cwd"]): Record<string, unknown> {
  const notifications = data.diagnostics.map((d) => notification(d.reason, d.file, d.line, cwd));
  const more = data.diagnosticsTotal - data.diagnostics.length;
  if (more > 0) notifications.push({ level: "note", message: { text: `${more} more diagnostics not listed` } });
  return { executionSuccessful: true, ...(notifications.length > 0 && { toolExecutionNotifications: notifications }) };
}

function notification(text: string, file: string, line: number, cwd: string | undefined): Record<string, unknown> {
  return { level: "warning", message: { text: clip(text, TEXT_WIDTH) }, locations: [{ physicalLocation: physicalLocation(repositoryPath(file, cwd), line) }] };
}
