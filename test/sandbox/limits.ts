import { loadConfig } from "../../src/config.js";
import { python } from "../../src/lang/python/index.js";
import type { SandboxOptions } from "../../src/sandbox/index.js";

const config = loadConfig();

/** Sandbox options over `repoDir` with the configured image, test-sized limits and Python's support. */
export function testOptions(repoDir: string, limits: Partial<SandboxOptions["limits"]> = {}): SandboxOptions {
  return {
    repoDir,
    image: config.sandbox.image,
    limits: { ...config.sandbox.limits, timeoutMs: 30_000, ...limits },
    support: python.sandbox,
  };
}
