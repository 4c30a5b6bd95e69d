/** Claude Code usage (adapters/claude-code/usage.ts): one turn per message.id, the last line's usage. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addUsage, EMPTY_SUM, type UsageSum } from "../../../src/core/usage.js";
import { claudeTurnLine, claudeUsage, recordsUsage, StreamedTurns, type ClaudeTurn, type ClaudeTurnLine } from "../../../src/adapters/claude-code/usage.js";

/** An assistant line of a streamed response: one content block, the usage as it stood. */
function line(id: string | undefined, output: number, block: Record<string, unknown> = { type: "text", text: "Checking." }): Record<string, unknown> {
  return {
    parentUuid: "a1",
    isSidechain: false,
    type: "assistant",
    message: {
      ...(id !== undefined ? { id } : {}),
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [block],
      stop_reason: null,
      usage: { input_tokens: 6, cache_creation_input_tokens: 410, cache_read_input_tokens: 22_000, cache_creation: { ephemeral_5m_input_tokens: 410, ephemeral_1h_input_tokens: 0 }, output_tokens: output, service_tier: "standard" },
    },
    requestId: "req_1",
    uuid: `u-${id}-${output}`,
    timestamp: "2026-03-02T10:00:00.000Z",
  };
}

const turnLine = (entry: Record<string, unknown>): ClaudeTurnLine => claudeTurnLine(entry)!;

function turnsOf(lines: Record<string, unknown>[], open?: number): { turns: ClaudeTurn[]; stragglers: number } {
  const stream = new StreamedTurns(open);
  const turns = lines.flatMap((entry) => stream.push(turnLine(entry)));
  return { turns: [...turns, ...stream.finish()], stragglers: stream.stragglers };
}

describe("claudeUsage", () => {
  it("maps the four counts and sums them as the total (none is recorded), with no money", () => {
    expect(claudeUsage({ input_tokens: 6, cache_creation_input_tokens: 410, cache_read_input_tokens: 22_000, output_tokens: 265 })).toEqual({ input: 6, output: 265, cacheRead: 22_000, cacheWrite: 410, total: 22_681 });
    expect(claudeUsage({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 })).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 });
    expect(claudeUsage({ service_tier: "standard" })).toBeUndefined();
    expect(claudeUsage(null)).toBeUndefined();
  });
});

describe("recordsUsage", () => {
  it("says whether claudeUsage would give a usage, without building it", () => {
    const count = fc.oneof(fc.nat(), fc.constant(-1), fc.constant(Number.NaN), fc.constant("12"), fc.constant(null));
    const usage = fc.oneof(fc.constant(null), fc.constant([1]), fc.record({ input_tokens: count, output_tokens: count, cache_read_input_tokens: count, cache_creation_input_tokens: count, service_tier: fc.constant("standard") }, { requiredKeys: ["service_tier"] }));
    fc.assert(fc.property(usage, (raw) => recordsUsage(raw) === (claudeUsage(raw) !== undefined)));
  });
});

describe("claudeTurnLine", () => {
  it("reads assistant entries only", () => {
    expect(turnLine(line("msg_01A", 2)).id).toBe("msg_01A");
    expect(claudeTurnLine({ type: "user", message: { role: "user", content: [] } })).toBeUndefined();
    expect(claudeTurnLine({ type: "assistant" })).toEqual({ id: undefined, usage: undefined });
  });
});

describe("StreamedTurns", () => {
  it("makes one turn of a response streamed over lines, with the last line's usage", () => {
    const { turns } = turnsOf([line("msg_01A", 1), line("msg_01A", 2, { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }), line("msg_01A", 339), line("msg_01B", 1), line("msg_01B", 97)]);
    expect(turns.map((t) => [t.id, t.usage?.output, t.lines])).toEqual([
      ["msg_01A", 339, 3],
      ["msg_01B", 97, 2],
    ]);
  });

  it("keeps two interleaved responses apart, handed out in the order they started", () => {
    const { turns } = turnsOf([line("msg_A", 1), line("msg_B", 3), line("msg_A", 50), line("msg_B", 70), line("msg_A", 60)]);
    expect(turns.map((t) => [t.id, t.usage?.output])).toEqual([
      ["msg_A", 60],
      ["msg_B", 70],
    ]);
  });

  it("finishes the oldest response once enough later ones started, and never counts a straggler twice", () => {
    const lines = [line("m1", 1), line("m2", 2), line("m3", 3), line("m1", 9)];
    const { turns, stragglers } = turnsOf(lines, 1);
    expect(turns.map((t) => [t.id, t.usage?.output])).toEqual([
      ["m1", 1],
      ["m2", 2],
      ["m3", 3],
    ]);
    expect(stragglers).toBe(1);
  });

  it("makes each line without a message id a turn of its own, in order", () => {
    const { turns } = turnsOf([line(undefined, 5), line("m1", 1), line(undefined, 7), line("m1", 8)]);
    expect(turns.map((t) => [t.id, t.usage?.output])).toEqual([
      [undefined, 5],
      ["m1", 8],
      [undefined, 7],
    ]);
  });

  it("does not let a later line without usage erase the usage an earlier one recorded", () => {
    const stream = new StreamedTurns();
    stream.push(turnLine(line("m1", 40)));
    stream.push({ id: "m1", usage: undefined });
    stream.push(turnLine({ type: "assistant", message: { id: "m1", usage: { service_tier: "standard", output_tokens: -1 } } }));
    expect(stream.finish()).toEqual([{ id: "m1", usage: expect.objectContaining({ output: 40 }), lines: 3 }]);
  });
});

describe("StreamedTurns over generated sessions", () => {
  it("sums to the known usage of every response, however many lines each was streamed over and however two interleave", () => {
    const response = fc.record({ output: fc.nat(5_000), lines: fc.integer({ min: 1, max: 4 }), interleave: fc.boolean() });
    fc.assert(
      fc.property(fc.array(response, { maxLength: 30 }), (responses) => {
        // Lines of each response; a response marked `interleave` has its lines alternate with the next one's.
        const perResponse = responses.map((r, i) => Array.from({ length: r.lines }, (_, k) => line(`msg_${i}`, k === r.lines - 1 ? r.output : Math.min(1, r.output))));
        const lines: Record<string, unknown>[] = [];
        for (let i = 0; i < perResponse.length; i++) {
          const mine = perResponse[i]!;
          if (responses[i]!.interleave && i + 1 < perResponse.length) {
            const next = perResponse[++i]!;
            for (let k = 0; k < Math.max(mine.length, next.length); k++) lines.push(...[mine[k], next[k]].filter((l) => l !== undefined));
          } else lines.push(...mine);
        }
        const sum: UsageSum = turnsOf(lines).turns.reduce<UsageSum>((s, t) => addUsage(s, t.usage), EMPTY_SUM);
        expect(sum.turns).toBe(responses.length);
        expect(sum.output ?? 0).toBe(responses.reduce((total, r) => total + r.output, 0));
      }),
    );
  });
});
