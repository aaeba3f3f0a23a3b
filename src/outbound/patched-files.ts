import { applyPatch, parsePatch, type StructuredPatch } from "diff";
import { forbiddenPath, normalizeRepoPath, type PathRules } from "../debug/guards.js";
import { UserError } from "../errors.js";
import { REGULAR_MODES, type Checkout, type RegularMode, type TreeEntry } from "./checkout.js";

/** One file of a fix as it goes into the commit: new content (null deletes it) and the mode it keeps. */
export interface FileChange {
  path: string;
  mode: RegularMode;
  content: string | null;
}

const HINT =
  "Hypofix patches only regular source files of the repository's language under the source paths; the fix is reported, not published";

const refuse = (why: string) => new UserError(`refused to publish the patch: ${why}`, HINT);

function fileName(name: string | undefined, prefix: string): string | undefined {
  if (name === undefined || name === "/dev/null") return undefined;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function regularMode(path: string, entry: TreeEntry): RegularMode {
  if (entry.type === "blob" && (REGULAR_MODES as readonly string[]).includes(entry.mode)) {
    return entry.mode as RegularMode;
  }
  const what =
    entry.mode === "120000"
      ? "a symbolic link"
      : entry.type === "commit"
        ? "a submodule"
        : entry.type === "tree"
          ? "a directory"
          : `not a regular file (mode ${entry.mode})`;
  throw refuse(`${path} is ${what} in the commit`);
}

/** A new file may not go through a link or a submodule: every folder on its way is a folder or does not exist yet. */
async function assertPlainFolders(checkout: Checkout, path: string): Promise<void> {
  const parts = path.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const folder = parts.slice(0, i).join("/");
    const entry = await checkout.entry(folder);
    if (entry === undefined) return;
    if (entry.type !== "tree")
      throw refuse(`${path} would be written through ${folder}, which is not a folder`);
  }
}

const createsFile = (p: StructuredPatch) => p.hunks.every((h) => h.oldLines === 0);

/**
 * The new contents and modes of every file a unified diff changes, computed
 * from the commit's git objects (never the working tree, where a repository
 * symlink could point at a host file or /dev/zero). The path guard is checked
 * again here, at publish time, on the path exactly as it will be committed.
 */
export async function patchedFiles(
  checkout: Checkout,
  patch: string,
  rules: PathRules,
): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const filePatch of parsePatch(patch)) {
    const before = fileName(filePatch.oldFileName, "a/");
    const after = fileName(filePatch.newFileName, "b/");
    const path = after ?? before;
    if (path === undefined) continue;
    if (before !== undefined && after !== undefined && before !== after) {
      throw refuse(`${before} → ${after} renames a file`);
    }
    if (normalizeRepoPath(path) !== path) throw refuse(`${path} is not a plain repository path`);
    const forbidden = forbiddenPath(path, rules);
    if (forbidden) throw refuse(forbidden);
    if (changes.some((c) => c.path === path)) throw refuse(`${path} appears twice in the patch`);

    const entry = await checkout.entry(path);
    if (entry === undefined) {
      if (before !== undefined && !createsFile(filePatch))
        throw refuse(`${path} is not a file in the commit`);
      if (after === undefined) throw refuse(`${path} is deleted but not in the commit`);
      await assertPlainFolders(checkout, path);
      const content = applyPatch("", filePatch);
      if (content === false) throw new Error(`the patch does not apply to the new file ${path}`);
      changes.push({ path, mode: "100644", content });
      continue;
    }
    const mode = regularMode(path, entry);
    if (after === undefined) {
      changes.push({ path, mode, content: null });
      continue;
    }
    const content = applyPatch(await checkout.blob(entry.object), filePatch);
    if (content === false)
      throw new Error(`the patch does not apply to ${path} at ${checkout.sha.slice(0, 12)}`);
    changes.push({ path, mode, content });
  }
  return changes;
}
