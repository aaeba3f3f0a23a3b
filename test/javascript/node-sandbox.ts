import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config.js";
import {
  detectNodeSetup,
  keyContent,
  NODE_SETUP_ENV,
  persistCommand,
} from "../../src/lang/javascript/setup.js";
import { prepareEnvironment } from "../../src/sandbox/environment.js";
import type { BaseImage } from "../../src/sandbox/images.js";
import type { SandboxSupport } from "../../src/sandbox/types.js";
import { copyFixture } from "../environment/helpers.js";
import type { SetupMirror } from "../helpers/npm-mirror.js";

const config = loadConfig();

/** The Node 20 sandbox image the JavaScript Docker tests run in. */
export const NODE_IMAGE = `${process.env.HYPOFIX_NODE_IMAGE ?? "hypofix/sandbox-node:1"}-node20`;

/**
 * A Node sandbox's support for the observer's tests: the JavaScript helpers folder. The Node
 * image has no Python, and JavaScript's own command runner is not the observer's: PID 1 is
 * `sleep` (it reaps nothing, which these short runs do not need), and with no runner the
 * sandbox runs each command with its own `docker exec`.
 */
export const NODE_SUPPORT: SandboxSupport = {
  helpers: { dir: fileURLToPath(new URL("../../src/lang/javascript/helpers", import.meta.url)), ignore: [] },
  init: ["sleep", "infinity"],
  supervisor: ["false"],
  env: {},
};

/**
 * Builds the environment of a fixture as the pipeline would: a scratch copy, the detected setup
 * from its lockfile, then the persist step; every package from `mirror` and nothing else (no
 * setup here reaches a public registry).
 */
export async function buildNodeFixture(name: string, base: BaseImage, mirror: SetupMirror) {
  const repo = await copyFixture(name);
  const files = new Map<string, string>();
  for (const file of ["package.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock"]) {
    const content = await readFile(path.join(repo, file), "utf8").catch(() => undefined);
    if (content !== undefined) files.set(file, content);
  }
  const plan = detectNodeSetup(files)!;
  const env = await prepareEnvironment({
    base,
    repoDir: repo,
    workingDirectory: "",
    setup: [...plan.commands, persistCommand("/work")],
    dependencyFiles: [...files].map(([p, content]) => ({ path: p, content: keyContent(p, content) })),
    scope: `test-node-env-${name}-${process.pid}-${Date.now()}`,
    allowNetwork: true,
    limits: config.sandbox.limits,
    setupTimeoutMs: 240_000,
    setupEnv: { ...NODE_SETUP_ENV, ...mirror.setupEnv },
    egress: { ...config.environment.egress, allow: [], mirrors: [mirror.egress] },
    cacheBytes: 1024 ** 4,
  });
  return { repo, plan, env };
}
