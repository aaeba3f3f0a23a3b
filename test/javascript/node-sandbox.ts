import { fileURLToPath } from "node:url";
import type { SandboxSupport } from "../../src/sandbox/types.js";

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
