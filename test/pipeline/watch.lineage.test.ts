/** File lineages (pipeline/watch/fileLineage.ts): which file is which across renames and rewrites. */
import { appendFileSync, linkSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileLineages, stampOf } from "../../src/pipeline/watch/fileLineage.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-lineage-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const look = (lineages: FileLineages, ...paths: string[]) => lineages.update(new Map(paths.map((path) => [path, stampOf(path)])));
const HEADER = `{"type":"session","version":3,"id":"s1","timestamp":"2026-05-01T09:00:00.000Z"}\n`;

describe("file lineages", () => {
  it("an append keeps the token; a truncation or an in-place rewrite starts a new generation, told once", () => {
    const lineages = new FileLineages();
    const file = join(dir, "s1.jsonl");
    writeFileSync(file, `${HEADER}{"a":1}\n`);
    expect(look(lineages, file)).toEqual([]);
    const token = lineages.tokenOf(file);
    appendFileSync(file, `{"a":2}\n`);
    expect(look(lineages, file)).toEqual([]);
    expect(lineages.tokenOf(file)).toBe(token);
    truncateSync(file, 10);
    expect(look(lineages, file)).toEqual([{ kind: "rewritten", token: lineages.tokenOf(file), path: file, why: "truncated" }]);
    expect(lineages.tokenOf(file)).not.toBe(token);
    const truncated = lineages.tokenOf(file);
    writeFileSync(file, `{"other":"content, longer than before"}\n`);
    expect(look(lineages, file)).toMatchObject([{ kind: "rewritten", why: "rewritten" }]);
    expect(lineages.tokenOf(file)).not.toBe(truncated);
    expect(look(lineages, file)).toEqual([]);
  });

  it("a file past the first 4 KB rewritten in place is told once: later appends are growth", () => {
    const lineages = new FileLineages();
    const file = join(dir, "big.jsonl");
    const body = `{"pad":"${"x".repeat(5000)}"}\n`;
    writeFileSync(file, `${HEADER}${body}`);
    look(lineages, file);
    writeFileSync(file, `${HEADER.replace("s1", "s2")}${body}{"a":1}\n`);
    expect(look(lineages, file)).toMatchObject([{ kind: "rewritten", why: "rewritten" }]);
    const rewritten = lineages.tokenOf(file);
    appendFileSync(file, `{"a":2}\n`);
    expect(look(lineages, file)).toEqual([]);
    expect(lineages.tokenOf(file)).toBe(rewritten);
  });

  it("a rename keeps the token under the new path, seen in one look or in two", () => {
    for (const looks of [1, 2]) {
      const lineages = new FileLineages();
      const live = join(dir, `s${looks}.jsonl`);
      const archive = `${live}.reset.2026-05-01T12-00-00.000Z`;
      writeFileSync(live, HEADER);
      look(lineages, live);
      const token = lineages.tokenOf(live);
      renameSync(live, archive);
      const changes = looks === 1 ? look(lineages, live, archive) : [...look(lineages, live), ...look(lineages, archive)];
      expect(changes.filter((change) => change.kind === "renamed")).toEqual([{ kind: "renamed", token, from: live, to: archive }]);
      expect(lineages.tokenOf(archive)).toBe(token);
    }
  });

  it("the live transcript archived and a new one started: the rename is told when the new file is first seen", () => {
    const lineages = new FileLineages();
    const live = join(dir, "s1.jsonl");
    const archive = `${live}.reset.2026-05-01T12-00-00.000Z`;
    writeFileSync(live, `${HEADER}{"life":1}\n`);
    look(lineages, live);
    const first = lineages.tokenOf(live);
    renameSync(live, archive);
    // The same header, as a new life of the session may start: still another file.
    writeFileSync(live, `${HEADER}{"life":2}\n`);
    // Before it is looked at, the path is known to hold another file than before (the unit's files
    // are then found again before it is read: unitFollower.ts); once looked at, it is the new one.
    expect(lineages.replacedAt(live, stampOf(live)!)).toBe(true);
    expect(lineages.replacedAt(archive, stampOf(archive)!)).toBe(false);
    expect(look(lineages, live)).toEqual([{ kind: "renamed", token: first, from: live, to: archive }]);
    expect(lineages.tokenOf(archive)).toBe(first);
    expect(lineages.tokenOf(live)).not.toBe(first);
    expect(lineages.replacedAt(live, stampOf(live)!)).toBe(false);
  });

  it("a file replaced by one that keeps its content (an atomic rewrite) stays the same lineage; one that does not is new", () => {
    const lineages = new FileLineages();
    const file = join(dir, "s1.jsonl");
    writeFileSync(file, `${HEADER}{"a":1}\n`);
    look(lineages, file);
    const token = lineages.tokenOf(file);
    writeFileSync(`${file}.tmp`, `${HEADER}{"a":1}\n{"a":2}\n`);
    renameSync(`${file}.tmp`, file);
    expect(look(lineages, file)).toEqual([]);
    expect(lineages.tokenOf(file)).toBe(token);
    writeFileSync(`${file}.tmp`, `{"something":"else"}\n`);
    renameSync(`${file}.tmp`, file);
    expect(look(lineages, file)).toEqual([]);
    expect(lineages.tokenOf(file)).not.toBe(token);
  });

  it("a deleted file is told gone; a hard link is another file, not a rename", () => {
    const lineages = new FileLineages();
    const file = join(dir, "a.jsonl");
    writeFileSync(file, HEADER);
    look(lineages, file);
    const token = lineages.tokenOf(file);
    linkSync(file, join(dir, "b.jsonl"));
    expect(look(lineages, join(dir, "b.jsonl"))).toEqual([]);
    expect(lineages.tokenOf(join(dir, "b.jsonl"))).not.toBe(token);
    rmSync(file);
    expect(look(lineages, file)).toEqual([{ kind: "deleted", token, path: file }]);
  });

  it("a new file that reuses a deleted file's inode but not its content is no rename of it", () => {
    const lineages = new FileLineages();
    const file = join(dir, "a.jsonl");
    writeFileSync(file, HEADER);
    look(lineages, file);
    const stamp = stampOf(file)!;
    rmSync(file);
    look(lineages, file);
    writeFileSync(join(dir, "b.jsonl"), `{"other":1}\n`);
    // Whatever inode the system gave it, the first bytes tell it apart.
    const changes = lineages.update(new Map([[join(dir, "b.jsonl"), { ...stampOf(join(dir, "b.jsonl"))!, ino: stamp.ino, dev: stamp.dev }]]));
    expect(changes).toEqual([]);
  });
});
