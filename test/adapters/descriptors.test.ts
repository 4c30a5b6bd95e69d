/**
 * An adapter is a descriptor (adapter.ts `InputAdapter`): what discovery, `--agent`, `--agent-home`
 * and check know of a format comes from the registry, and no format folder reaches into another's.
 */
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS, AGENT_KINDS, agentKindOf } from "../../src/adapters/registry.js";
import { sourcesUnder } from "../helpers/sourceFiles.js";

const ADAPTERS_DIR = resolve("src/adapters");
/** Folders every format may use: the shared library, the line sources, and the adapter contract. */
const COMMON = new Set(["shared", "io"]);

/** The adapters folder a module of src/adapters belongs to ("" for the modules at its top). */
const folderOf = (file: string) => relative(ADAPTERS_DIR, file).split("/").slice(0, -1)[0] ?? "";

describe("adapter descriptors", () => {
  it("no format folder imports another format's folder", () => {
    const crossings: string[] = [];
    for (const file of sourcesUnder(ADAPTERS_DIR)) {
      const own = folderOf(file);
      if (own === "" || COMMON.has(own)) continue;
      for (const match of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)) {
        const target = resolve(dirname(file), match[1]!);
        if (!target.startsWith(ADAPTERS_DIR)) continue;
        const other = folderOf(target);
        if (other !== "" && other !== own && !COMMON.has(other)) crossings.push(`${relative(ADAPTERS_DIR, file)} → ${match[1]}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it("outside src/adapters a format's folder is reached only for what is OpenClaw's by definition", () => {
    // The runtime whose detectors looplens replays owns the config file and the state directory;
    // everything else a command needs of a format (its files, units, companions, homes) is the
    // registry's. `releaseStores` frees the SQLite stores a long watch holds open.
    const allowed = new Set(["openclaw/configFile.js", "openclaw/stateDirectory.js", "openclaw/sqliteStore.js", "events/liveEventsJson.js"]);
    const reaches: string[] = [];
    for (const file of sourcesUnder(resolve("src")).filter((file) => !file.startsWith(ADAPTERS_DIR))) {
      for (const match of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)) {
        const target = resolve(dirname(file), match[1]!);
        if (!target.startsWith(ADAPTERS_DIR)) continue;
        const folder = folderOf(target);
        if (folder === "" || COMMON.has(folder)) continue;
        if (!allowed.has(relative(ADAPTERS_DIR, target))) reaches.push(`${relative(resolve("src"), file)} → ${match[1]}`);
      }
    }
    expect(reaches).toEqual([]);
  });

  it("no event is cast to LoopEvent outside the run writer", () => {
    const casts = sourcesUnder(resolve("src"))
      .filter((file) => !file.endsWith("adapters/shared/runWriter.ts"))
      .filter((file) => /as (unknown as )?LoopEvent\b/.test(readFileSync(file, "utf8")));
    expect(casts.map((file) => relative(resolve("src"), file))).toEqual([]);
  });

  it("the agent kinds are the descriptors' own, OpenClaw first, and every format but canonical events names one", () => {
    const kinds = new Set(ADAPTERS.flatMap((adapter) => (adapter.agent ? [adapter.agent.kind] : [])));
    expect([...AGENT_KINDS].sort()).toEqual([...kinds].sort());
    expect(AGENT_KINDS[0]).toBe("openclaw");
    expect(AGENT_KINDS.slice(1)).toEqual([...AGENT_KINDS.slice(1)].sort());
    for (const adapter of ADAPTERS) expect(agentKindOf(adapter.format)).toBe(adapter.agent?.kind);
    expect(ADAPTERS.filter((adapter) => adapter.agent === undefined).map((adapter) => adapter.format)).toEqual(["events"]);
  });
});
