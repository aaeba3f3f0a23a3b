import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { HOST_PYTHON } from "./pytest.js";

const run = promisify(execFile);
/** The env-py313 fixture's in-tree build backend writes wheels; one wheel writer for both. */
const BACKEND_DIR = fileURLToPath(new URL("../../test/fixtures/env-py313/_build", import.meta.url));

/**
 * Writes a wheel of `dist` (a wheel is a zip: modules plus dist-info) into `folder`,
 * so a setup can install a package that no index here serves. Returns its path.
 */
export async function buildWheel(
  folder: string,
  dist: string,
  version: string,
  modules: Record<string, string>,
): Promise<string> {
  const script = [
    "import json, sys",
    "sys.path.insert(0, sys.argv[1])",
    "from backend import write_wheel",
    "print(write_wheel(sys.argv[2], json.loads(sys.argv[5]), sys.argv[3].replace('-', '_'), sys.argv[4]))",
  ].join("\n");
  const args = ["-c", script, BACKEND_DIR, folder, dist, version, JSON.stringify(modules)];
  const { stdout } = await run(HOST_PYTHON, args);
  return path.join(folder, stdout.trim());
}
