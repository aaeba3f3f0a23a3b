import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Files never worth copying into a sandbox from the helpers folder. */
export const HELPER_IGNORE = new Set([".gitkeep", "__pycache__"]);

/**
 * The folder of Hypofix's Python helper files: beside the sources under tsx,
 * or under the package root when running from dist/.
 */
export function helpersSourceDir(): string {
  const candidates = ["../lang/python/helpers/", "../../../src/lang/python/helpers/"].map((rel) =>
    fileURLToPath(new URL(rel, import.meta.url)),
  );
  const found = candidates.find((dir) => existsSync(dir));
  if (!found) throw new Error(`helpers folder not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** True for a path (relative to the helpers folder) that the copy should skip. */
export function ignoredHelper(relPath: string): boolean {
  return relPath.split(/[\\/]/).some((part) => HELPER_IGNORE.has(part));
}
