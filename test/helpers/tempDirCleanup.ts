/** Setup file (vitest.config.ts): the folders a test file made with `tempDir` go when it is done. */
import { afterAll } from "vitest";
import { removeTempDirs } from "./tempDir.js";

// Registered before the file's own hooks, so it runs after them (after-hooks run in reverse).
afterAll(removeTempDirs);
