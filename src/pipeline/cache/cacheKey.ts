/**
 * What a cache entry is the result *of*, as one text (its hash names the entry file: entryFile.ts):
 * the build of looplens, the kind of result, the unit's files by path (as given: reports print them
 * so), and every option that changes what reading and replay give. What is not in the key but
 * checked against the entry's stamp: the files' contents (fileStamps.ts) and the effective config of
 * each agent the unit's replay asked for (`configsDigest`).
 */
import { MAX_LINE_BYTES } from "../../adapters/io/lineSource.js";
import type { ResolvedConfig } from "../../core/config.js";
import type { ProfileName } from "../../core/profiles/profile.js";
import type { AnalysisOptions } from "../fileAnalysis.js";
import type { AskedAgent } from "../askedAgents.js";
import type { ByteHasher } from "./byteHash.js";

/**
 * Every option of an analysis, and whether it changes the result (`key`) or only how it is made
 * (`how`: progress, pacing, where runs wait on disk). Typed over all of AnalysisOptions' keys, so
 * that an option added there does not compile until it is placed here.
 */
const OPTION_ROLES: { readonly [K in keyof Required<AnalysisOptions>]: "key" | "how" } = {
  inputFormat: "key",
  activeBranch: "key",
  maxLineBytes: "key",
  profile: "key",
  timelines: "key",
  // Checked shortcuts and byte payloads give the same result by contract; tests turn them off to
  // compare both ways, and a cache must not answer one way with the other's result.
  canReadAgain: "key",
  bytePayloads: "key",
  closeRuns: "key",
  lastFilePassBytes: "key",
  lastOfUnit: "key",
  // Only files are read up to their last complete line (watch); a unit read so is a different result.
  completeLines: "key",
  progress: "how",
  afterChunk: "how",
  spill: "how",
  // Hooks of `analyze - -f ndjson` and the library's in-memory input: both read standard input,
  // which is never cached (no file to stamp: fileStamps.ts), and analyze turns the cache off when it streams.
  onFinding: "how",
  onFile: "how",
  onLiveEvent: "how",
  standardInput: "how",
};

/** The options of the key, in OPTION_ROLES' order; defaults written out, so that the same replay is one key. */
export function replayOptions(options: AnalysisOptions): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  for (const [name, role] of Object.entries(OPTION_ROLES)) {
    if (role === "key") key[name] = options[name as keyof AnalysisOptions] ?? null;
  }
  key.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  key.timelines = options.timelines === true;
  key.activeBranch = options.activeBranch === true;
  return key;
}

/** The options' part of key texts, made once per command (a sweep's grid is kilobytes of JSON, per unit). */
const optionTexts = new WeakMap<object, Map<unknown, string>>();

/** The key text of an entry: `kind` (analyze, sweep), the build, the unit and what else the result depends on (`more`). */
export function keyText(kind: string, build: string, unit: readonly string[], options: AnalysisOptions, more: object | null = null): string {
  let known = optionTexts.get(options);
  if (known === undefined) optionTexts.set(options, (known = new Map()));
  let rest = known.get(more);
  if (rest === undefined) known.set(more, (rest = JSON.stringify([replayOptions(options), more])));
  return `${JSON.stringify([kind, build, unit])}${rest}`;
}

/** The hash that names an entry file (its key text is in the entry too, compared on every read). */
export function keyHash(text: string, hasher: ByteHasher): string {
  return hasher.hash(Buffer.from(text));
}


/** A config as text; `undefined` kept apart from absent (`enabled` unset is not `enabled: false`). */
const configText = (config: ResolvedConfig) => JSON.stringify(config, (_key, value: unknown) => (value === undefined ? "\u0000undefined" : value));

/** Digests already made per resolver (`configFor`), by the list of agents asked: most units ask the same one or two. */
const digests = new WeakMap<object, Map<string, string>>();

/**
 * The digest of the effective configs the unit's replay asked for, as `configFor` resolves them now:
 * a unit is replayed again when any of them changed (a `--set`, the config file's block of one of its
 * agents), and not when only other agents' blocks did. A resolver gives the same config for an agent
 * throughout a command, so its digests are kept for the command.
 */
export function configsDigest(
  asked: readonly AskedAgent[],
  configFor: (agent: string | null, profile: ProfileName) => ResolvedConfig,
  hasher: ByteHasher,
  resolver: object = configFor,
): string {
  const asText = JSON.stringify(asked.map(({ agent, profile }) => [agent, profile]));
  let known = digests.get(resolver);
  if (known === undefined) digests.set(resolver, (known = new Map()));
  let digest = known.get(asText);
  if (digest === undefined) {
    digest = hasher.hash(Buffer.from(JSON.stringify(asked.map(({ agent, profile }) => [agent, profile, configText(configFor(agent, profile))]))));
    known.set(asText, digest);
  }
  return digest;
}
