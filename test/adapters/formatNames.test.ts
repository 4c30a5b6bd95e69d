/**
 * The light lists of formats and agents (src/adapters/formatNames.ts, read by the flags and filters
 * without loading the adapters) are the registry's.
 */
import { describe, expect, it } from "vitest";
import { AGENT_HOMES, AGENT_KINDS, agentKindOf, INPUT_FORMATS } from "../../src/adapters/formatNames.js";
import * as registry from "../../src/adapters/registry.js";

describe("format names", () => {
  it("lists the registry's formats, in its order", () => {
    expect(INPUT_FORMATS).toEqual(registry.INPUT_FORMATS);
  });

  it("lists the registry's agents, in its order, and each format's agent as its descriptor says", () => {
    expect(AGENT_KINDS).toEqual(registry.AGENT_KINDS);
    expect(INPUT_FORMATS.map(agentKindOf)).toEqual(registry.ADAPTERS.map((adapter) => adapter.agent?.kind));
    expect(agentKindOf("no-such-format")).toBeUndefined();
  });

  it("offers --agent-home for the agents whose descriptors know their homes, then all", () => {
    const withHomes = AGENT_KINDS.filter((kind) => registry.ADAPTERS.some((adapter) => adapter.agent?.kind === kind && adapter.agent.homes !== undefined));
    expect(AGENT_HOMES).toEqual([...withHomes, "all"]);
  });
});
