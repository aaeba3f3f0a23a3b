import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The folder of the Python helper files copied into every sandbox (beside this module, in src/ and in dist/). */
export const PYTHON_HELPERS_DIR = fileURLToPath(new URL("./helpers/", import.meta.url));

/** The one list of rules, shared with the in-sandbox helpers (helpers/test_files.json). */
const rules = z
  .object({
    dirs: z.array(z.string()),
    prefixes: z.array(z.string()),
    suffixes: z.array(z.string()),
    names: z.array(z.string()),
  })
  .parse(JSON.parse(readFileSync(new URL("./helpers/test_files.json", import.meta.url), "utf8")));

/** True for a repository-relative, `/`-separated path that is test code or lives in a test folder. */
export function isTestFile(path: string): boolean {
  const parts = path.split("/");
  const name = parts.at(-1) ?? "";
  return (
    parts.slice(0, -1).some((dir) => rules.dirs.includes(dir)) ||
    rules.prefixes.some((p) => name.startsWith(p)) ||
    rules.suffixes.some((s) => name.endsWith(s)) ||
    rules.names.includes(name)
  );
}
