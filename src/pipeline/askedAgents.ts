/**
 * The agents (and profiles) a replay asked the config of, each once, in first-asked order: what
 * config notices are replayed in, and what a cache entry is checked against (cache/cacheKey.ts).
 * One piece for every asker: an analysis of a unit, a sweep's passes, a command's kept output.
 */
import type { ProfileName } from "../core/profiles/profile.js";
import type { ConfigForAgent } from "../core/replay.js";

/** An agent a replay asked the config of, under a profile. */
export interface AskedAgent {
  readonly agent: string | null;
  readonly profile: ProfileName;
}

/** One text per (agent, profile): `null` (no agent known) apart from an agent named "". */
export const askKey = (agent: string | null, profile: ProfileName): string => `${profile}\u0000${agent ?? ""}\u0000${agent === null}`;

export class AskedAgents {
  private readonly seen = new Set<string>();

  /** `list`: agents already asked (a resumed replay's), in order; added to in place. */
  constructor(readonly list: AskedAgent[] = []) {
    for (const { agent, profile } of list) this.seen.add(askKey(agent, profile));
  }

  add(agent: string | null, profile: ProfileName): void {
    const key = askKey(agent, profile);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ agent, profile });
  }

  /** From the start again (the unit is read again). */
  clear(): void {
    this.list.length = 0;
    this.seen.clear();
  }

  /** `configFor`, noting each agent it is asked for. */
  recording(configFor: ConfigForAgent): ConfigForAgent {
    return (agent, profile) => {
      this.add(agent, profile);
      return configFor(agent, profile);
    };
  }
}
