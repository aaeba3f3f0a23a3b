// Child process for reap.test.ts: creates a docker sandbox, prints its container id, and waits to be killed.
import { createSandbox } from "../../src/sandbox/index.js";
import { testOptions } from "./limits.js";

const repoDir = process.argv[2];
if (!repoDir) throw new Error("usage: hold-sandbox.ts <repo-dir>");
const sandbox = (await createSandbox("docker", testOptions(repoDir))) as unknown as { id: string };
process.stdout.write(`${sandbox.id}\n`);
setInterval(() => {}, 60_000);
