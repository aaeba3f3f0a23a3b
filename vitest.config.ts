import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests share one Docker engine and one Redis on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
