import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // CLI tests spawn the compiled binary (built by `npm test` before vitest starts).
    testTimeout: 30_000,
    pool: "forks",
  },
});
