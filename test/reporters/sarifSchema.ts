/**
 * The OASIS SARIF 2.1.0 schema (draft-04, test/data/schemas/, verbatim) compiled with ajv's draft-04
 * build, formats (`uri`, `uri-reference`, `date-time`) checked too: a relative URI with a space is
 * as wrong as a missing field.
 */
import { readFileSync } from "node:fs";
import ajvDraft04 from "ajv-draft-04";
import ajvFormats from "ajv-formats";
import { ROOT } from "../helpers/cli.js";

// CommonJS modules whose `default` is themselves: `.default` is the class (and plugin) under any interop.
const ajv = new ajvDraft04.default({ allErrors: true, strict: false });
ajvFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(`${ROOT}/test/data/schemas/sarif-schema-2.1.0.json`, "utf8")) as object);

/** The schema's complaints about a document, `path message` each; none when it is valid. */
export function sarifErrors(document: unknown): string[] {
  return validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}
