import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Fixture projects carry their own tests, for their own runners inside the sandbox.
    exclude: ["test/fixtures/**", "**/node_modules/**"],
    // Integration tests share one Docker engine and one Redis on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
