import type { SandboxSupport } from "./types.js";

/** True for a path (relative to the helpers folder) that the copy into a sandbox skips. */
export function ignoredHelper(relPath: string, helpers: SandboxSupport["helpers"]): boolean {
  return relPath.split(/[\\/]/).some((part) => helpers.ignore.includes(part));
}
