import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // CLI tests spawn the compiled binary (built by `npm test` before vitest starts).
    testTimeout: 30_000,
    pool: "forks",
    // The run's own temporary directory, which must be empty at the end (tempDirCheck.ts); the
    // folders a test file made with tempDir() are removed after it (tempDirCleanup.ts). The result
    // cache of every CLI run goes to a folder inside it (cacheFolder.setup.ts): listed second, so it
    // is made after TMPDIR points there and removed before the check (teardowns run in reverse).
    globalSetup: ["test/helpers/tempDirCheck.ts", "test/helpers/cacheFolder.setup.ts"],
    setupFiles: ["test/helpers/tempDirCleanup.ts"],
  },
});
