/**
 * How OpenClaw's session files are found and grouped (adapter.ts `InputFiles`): archives and
 * transcript stores in a folder scan; a session's transcript, archives and sidecar read as one
 * history, the sidecar's first pass made before them (sidecarPreface.ts); a file in an agent's
 * `sessions/` folder is OpenClaw's own, not opened for another agent's fork tag.
 */
import type { InputFiles } from "../adapter.js";
import { inOpenClawSessionsFolder } from "./identity.js";
import { ARCHIVE_FILE, groupSessionFiles, sessionFilesBeside, STORE_FILE } from "./sessionFiles.js";
import { sidecarPreface } from "./sidecarPreface.js";
import { isSqliteFile, storeSessions, storeSessionSource } from "./sqliteStore.js";

export const OPENCLAW_SESSION_FILES: InputFiles = {
  scan: (name) => ARCHIVE_FILE.test(name) || STORE_FILE.test(name),
  ownsPath: inOpenClawSessionsFolder,
  lives: groupSessionFiles,
  companions: sessionFilesBeside,
  preface: sidecarPreface,
  // A SQLite transcript store: one input a session, `<db>#<sessionId>`.
  container: {
    // Only a file named as a store is opened for the SQLite header in a folder scan: the folder's
    // other inputs are line files (a state folder's 7,241 transcripts took ~110 ms of opens for nothing).
    named: (path) => STORE_FILE.test(path),
    is: isSqliteFile,
    members: storeSessions,
    open: storeSessionSource,
  },
};
