/**
 * The light file-name rules (src/adapters/inputFileNames.ts, run by every kept-output lookup without
 * loading the adapters) agree with discovery's, which come from the descriptors, on every file of the
 * fixtures and test data and on names each format's rule is about.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import * as discovery from "../../src/adapters/discovery.js";
import { isInputFile, namedAsStore } from "../../src/adapters/inputFileNames.js";

const NAMED = [
  "a/run.jsonl", "a/run.ndjson.gz", "a/gateway.log.zst", "a/run.JSONL", "a/run.json", "a/sessions.json", "a/x.meta.json",
  "a/s.jsonl.reset.2026-01-01T00-00-00Z", "a/s.jsonl.deleted.1", "a/s.jsonl.bak-1-2.gz", "a/s.jsonl.bak-x", "a/store.sqlite", "a/store.sqlite-wal",
  "conv/events/0.json", "conv/events/event-00001-0a1b-2c.json", "conv/events/notes.json", "tmp/chats/session-1.json", "tmp/chats/session-1.looplens.json",
  "tmp/session-1.json", "a/readme.md", "a/run.txt",
];

/** Every file (and folder) below the fixtures and the test data, as relative paths. */
const sampleFiles = () => ["fixtures", "test/data"].flatMap((dir) => readdirSync(dir, { recursive: true, encoding: "utf8" }).map((file) => join(dir, file)));

describe("input file names", () => {
  it("takes the files discovery takes, and opens as stores the ones it does", () => {
    const paths = [...NAMED, ...sampleFiles().map((file) => join("x", file))];
    const light = paths.map((path) => [path, isInputFile(basename(path), path), namedAsStore(path)]);
    const descriptors = paths.map((path) => [path, discovery.isInputFile(basename(path), path), discovery.namedAsStore(path)]);
    expect(light).toEqual(descriptors);
    // The rules are not all false: each kind of name above is taken.
    expect(NAMED.filter((path) => isInputFile(basename(path), path)).length).toBeGreaterThan(10);
    expect(NAMED.filter(namedAsStore)).toEqual(["a/store.sqlite"]);
  });
});
