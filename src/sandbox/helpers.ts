import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Files never worth copying into a sandbox from the helpers folder. */
export const HELPER_IGNORE = new Set([".gitkeep", "__pycache__"]);

/**
 * A non-TypeScript file under src/: found beside the sources under tsx, or
 * under the package root when running from dist/src/sandbox.
 */
function sourcePath(relToSrc: string): string {
  const candidates = [`../${relToSrc}`, `../../../src/${relToSrc}`].map((rel) =>
    fileURLToPath(new URL(rel, import.meta.url)),
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`${relToSrc} not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** The folder of Hypofix's Python helper files, copied into every sandbox. */
export const helpersSourceDir = (): string => sourcePath("lang/python/helpers/");

/** The command runner started inside docker sandboxes. */
export const supervisorSource = (): string => sourcePath("lang/python/supervisor.py");

/** True for a path (relative to the helpers folder) that the copy should skip. */
export function ignoredHelper(relPath: string): boolean {
  return relPath.split(/[\\/]/).some((part) => HELPER_IGNORE.has(part));
}
