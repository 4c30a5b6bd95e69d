/** Reading config text: JSON5, OpenClaw config vs bare block, structural errors, unknown keys, agents. */
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfigText } from "../../../src/adapters/openclaw/configFile.js";

const NO_BLOCK = "no tools.loopDetection or agents.list[].tools.loopDetection in this file; the runtime defaults apply";

const errorOf = (text: string): string => {
  try {
    parseConfigText("cfg.json5", text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
};

describe("JSON5", () => {
  it("reads comments, trailing commas, unquoted keys, single quotes, hex numbers and a BOM", () => {
    const text = "\uFEFF// openclaw.json\n{\n  tools: { /* block */ loopDetection: { 'enabled': true, warningThreshold: 0xC, }, },\n}\n";
    const file = parseConfigText("cfg.json5", text);
    expect(file.kind).toBe("openclaw");
    expect(file.global?.values).toEqual({ enabled: true, warningThreshold: 12 });
  });

  it.each([
    ["{\n  tools: {\n    loopDetection: { enabled: true ]\n  }\n}\n", "cfg.json5:3:36: invalid JSON5: invalid character ']'"],
    ["{a: 'x", "cfg.json5:1:7: invalid JSON5: invalid end of input"],
    ["", "cfg.json5:1:1: invalid JSON5: invalid end of input"],
    ["{}\n  x", "cfg.json5:2:3: invalid JSON5: invalid character 'x'"],
  ])("a syntax error names the file, line and column: %j", (text, message) => {
    expect(errorOf(text)).toBe(message);
  });
});

describe("OpenClaw config or bare block", () => {
  it("reads a bare block when the top level holds loopDetection keys", () => {
    const file = parseConfigText("cfg.json5", "{ enabled: true, criticalThreshold: 12 }");
    expect(file.kind).toBe("bare");
    expect(file.global?.values).toEqual({ enabled: true, criticalThreshold: 12 });
    expect(file.notices).toEqual([]);
  });

  it("takes a top level with only a typo of a block key for a bare block, so the typo is reported", () => {
    const file = parseConfigText("cfg.json5", "{ warningTreshold: 5 }");
    expect(file.kind).toBe("bare");
    expect(file.notices.map((n) => n.message)).toEqual(["unknown key warningTreshold (did you mean warningThreshold?); ignored"]);
  });

  it("takes a config without tools/agents and without block keys for an OpenClaw config lacking the block", () => {
    const file = parseConfigText("cfg.json5", "{ gateway: { port: 18789 }, loopDetection: { enabled: true } }");
    expect(file.kind).toBe("openclaw");
    expect(file.global).toBeUndefined();
    expect(file.notices.map((n) => n.message)).toEqual([
      "top-level loopDetection is not read from an OpenClaw config (did you mean tools.loopDetection?); ignored",
      NO_BLOCK,
    ]);
  });

  it("reports block keys written at the top of an OpenClaw config", () => {
    const file = parseConfigText("cfg.json5", "{ tools: { loopDetection: {} }, enabled: true }");
    expect(file.notices.map((n) => n.message)).toEqual([
      "top-level enabled is not read from an OpenClaw config (did you mean tools.loopDetection.enabled?); ignored",
    ]);
  });
});

describe("structural errors", () => {
  it.each([
    ["{ tools: { loopDetection: 5 } }", "cfg.json5: tools.loopDetection is not an object (got 5)"],
    ["{ tools: { loopDetection: null } }", "cfg.json5: tools.loopDetection is not an object (got null)"],
    ["{ tools: { loopDetection: [] } }", "cfg.json5: tools.loopDetection is not an object (got an array)"],
    ["{ tools: 'x' }", 'cfg.json5: tools is not an object (got "x")'],
    ["[1, 2]", "cfg.json5: the config is not an object (got an array)"],
    ["{ tools: { loopDetection: { enabled: 'yes' } } }", 'cfg.json5: tools.loopDetection.enabled must be true or false (got "yes")'],
    ["{ enabled: 1 }", "cfg.json5: enabled must be true or false (got 1)"],
    ["{ detectors: { pingPong: 'off' } }", 'cfg.json5: detectors.pingPong must be true or false (got "off")'],
    ["{ detectors: false }", "cfg.json5: detectors is not an object (got false)"],
    ["{ postCompactionGuard: 3 }", "cfg.json5: postCompactionGuard is not an object (got 3)"],
    ["{ agents: { list: { id: 'a' } } }", "cfg.json5: agents.list is not an array (got an object)"],
    [
      "{ agents: { list: [{ id: 'a', tools: { loopDetection: { detectors: { genericRepeat: null } } } }] } }",
      "cfg.json5: agents.list[0].tools.loopDetection.detectors.genericRepeat must be true or false (got null)",
    ],
    ["{ agents: { list: [{ id: 'a', tools: { loopDetection: true } }] } }", "cfg.json5: agents.list[0].tools.loopDetection is not an object (got true)"],
  ])("%s", (text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it("leaves invalid numbers to resolution (fallback with a notice, not an error)", () => {
    expect(parseConfigText("cfg.json5", "{ warningThreshold: -1, historySize: 'big' }").global?.values).toEqual({ warningThreshold: -1, historySize: "big" });
  });
});

describe("unknown keys", () => {
  it("get a notice each, with the closest known key", () => {
    const file = parseConfigText(
      "cfg.json5",
      "{ tools: { loopDetection: { warningTreshold: 5, histroySize: 3, colour: 'red', detectors: { pingpong: false }, postCompactionGuard: { window: 2 } } } }",
    );
    expect(file.notices.map((n) => [n.origin, n.key, n.message])).toEqual([
      ["cfg.json5", "tools.loopDetection.warningTreshold", "unknown key tools.loopDetection.warningTreshold (did you mean warningThreshold?); ignored"],
      ["cfg.json5", "tools.loopDetection.histroySize", "unknown key tools.loopDetection.histroySize (did you mean historySize?); ignored"],
      ["cfg.json5", "tools.loopDetection.colour", "unknown key tools.loopDetection.colour; ignored"],
      ["cfg.json5", "tools.loopDetection.detectors.pingpong", "unknown key tools.loopDetection.detectors.pingpong (did you mean detectors.pingPong?); ignored"],
      [
        "cfg.json5",
        "tools.loopDetection.postCompactionGuard.window",
        "unknown key tools.loopDetection.postCompactionGuard.window (did you mean postCompactionGuard.windowSize?); ignored",
      ],
    ]);
  });

  it("treats __proto__ and constructor as plain unknown keys, changing nothing", () => {
    const text = `{
      __proto__: { tools: { loopDetection: { enabled: false } } },
      tools: { loopDetection: { __proto__: { enabled: false }, constructor: 1, detectors: { __proto__: { pingPong: false } } } },
    }`;
    const file = parseConfigText("cfg.json5", text);
    expect(Object.keys(file.global!.values)).toEqual(["__proto__", "constructor", "detectors"]);
    expect(Object.getPrototypeOf(file.global!.values)).toBe(Object.prototype);
    expect(file.notices.map((n) => n.key)).toEqual(["tools.loopDetection.__proto__", "tools.loopDetection.constructor", "tools.loopDetection.detectors.__proto__"]);
    expect(({} as Record<string, unknown>).enabled).toBeUndefined();
  });
});

describe("agents.list", () => {
  const agents = (entries: string) => parseConfigText("cfg.json5", `{ agents: { list: [${entries}] } }`);

  it("keys overrides by trimmed, lower-cased id, keeping the id as written and the block's path", () => {
    const file = agents("{ id: 'main' }, { id: ' Safe-Runner ', tools: { loopDetection: { warningThreshold: 8 } } }");
    expect([...file.agents.keys()]).toEqual(["safe-runner"]);
    expect(file.agents.get("safe-runner")).toEqual({ id: " Safe-Runner ", where: "agents.list[1].tools.loopDetection", values: { warningThreshold: 8 } });
  });

  it("uses the first entry of a repeated id, like the runtime's lookup, and says so", () => {
    const file = agents("{ id: 'a' }, { id: 'A', tools: { loopDetection: { warningThreshold: 3 } } }");
    expect(file.agents.size).toBe(0);
    expect(file.notices.map((n) => n.message)).toEqual([
      'agents.list[1] repeats agent id "A"; the first entry, agents.list[0], is used and agents.list[1].tools.loopDetection is ignored',
      NO_BLOCK,
    ]);
  });

  it("reports an override without an id, and skips entries that are not objects", () => {
    const file = agents("null, 'x', { tools: { loopDetection: { enabled: true } } }");
    expect(file.agents.size).toBe(0);
    expect(file.notices.map((n) => n.message)).toEqual(["agents.list[2] has no id; its loopDetection override applies to no agent", NO_BLOCK]);
  });

  it("keeps agent ids like __proto__ as plain map keys", () => {
    const file = agents("{ id: '__proto__', tools: { loopDetection: { warningThreshold: 2 } } }");
    expect(file.agents.get("__proto__")?.values).toEqual({ warningThreshold: 2 });
    expect(file.agents.get("constructor")).toBeUndefined();
  });
});
