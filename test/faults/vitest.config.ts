import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The fault suite (`npm run test:faults`): slow, kills processes and Redis, so not part of `npm test`. */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["test/faults/**/*.faults.ts"],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
