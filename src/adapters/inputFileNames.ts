/**
 * Which files a folder scan takes, and which it opens as a store, by their names alone (discovery.ts
 * `isInputFile`, `namedAsStore`): the rules of every format's descriptor (`InputFiles.scan`,
 * `InputContainer.named`), from the same patterns, without loading the readers. The kept output's
 * folder listing (pipeline/cache/inputListing.ts) runs on every hit, which then loads no adapter.
 * inputFileNames.test checks these against the descriptors.
 */
import { GEMINI_CHAT_JSON_FILE } from "./gemini/identity.js";
import { ARCHIVE_FILE, STORE_FILE } from "./openclaw/sessionFiles.js";
import { OPENHANDS_EVENT_FILE } from "./openhands/files.js";

/** Line files by extension, compressed or not. */
const LINE_FILE = /\.(jsonl|ndjson|log)(\.(gz|zst))?$/i;

/** Whether a folder scan reads this file (`name`: its base name; `path`: where it is). */
export const isInputFile = (name: string, path: string) =>
  LINE_FILE.test(name) || ARCHIVE_FILE.test(name) || STORE_FILE.test(name) || OPENHANDS_EVENT_FILE.test(path) || GEMINI_CHAT_JSON_FILE.test(path);

/** Whether a folder scan opens this file as a store (by its name: the folder's other inputs are line files). */
export const namedAsStore = (file: string) => STORE_FILE.test(file);
