import { loadConfig } from "../../src/config.js";
import type { SandboxOptions } from "../../src/sandbox/index.js";

const config = loadConfig();

/** Sandbox options over `repoDir` with the configured image and test-sized limits. */
export function testOptions(repoDir: string, limits: Partial<SandboxOptions["limits"]> = {}): SandboxOptions {
  return {
    repoDir,
    image: config.sandbox.image,
    limits: { ...config.sandbox.limits, timeoutMs: 30_000, ...limits },
  };
}
