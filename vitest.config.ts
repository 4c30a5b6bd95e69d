import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // CLI tests spawn the compiled binary (built by `npm test` before vitest starts).
    testTimeout: 30_000,
    pool: "forks",
    // The run's own temporary directory, which must be empty at the end (tempDirCheck.ts); the
    // folders a test file made with tempDir() are removed after it (tempDirCleanup.ts).
    globalSetup: ["test/helpers/tempDirCheck.ts"],
    setupFiles: ["test/helpers/tempDirCleanup.ts"],
  },
});
