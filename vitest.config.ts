import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // CLI tests spawn the compiled binary (built by `npm test` before vitest starts).
    testTimeout: 30_000,
    pool: "forks",
    // The result cache of every CLI run goes to a temporary folder (never the user's).
    globalSetup: ["test/helpers/cacheFolder.setup.ts"],
  },
});
