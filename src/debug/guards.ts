import { isTestFile } from "../lang/python/test-files.js";

/** Where a patch may go. Paths are repository-relative, `/`-separated. */
export interface PathRules {
  /** Directories or files a patch may touch; empty means the whole repository. */
  sourcePaths: string[];
  /** Directories or files never touched nor localized into. */
  ignorePaths: string[];
}

const within = (file: string, prefix: string): boolean => {
  const p = prefix.replace(/^\.\//, "").replace(/\/+$/, "");
  return p === "" || p === "." || file === p || file.startsWith(`${p}/`);
};

/** Why a patch may not touch `file`, or undefined when it may. */
export function forbiddenPath(file: string, rules: PathRules): string | undefined {
  if (file.startsWith("/") || file.split("/").includes("..")) return `${file} is outside the repository`;
  if (within(file, ".github")) return `${file} is CI configuration (.github/)`;
  if (isTestFile(file))
    return `${file} is a test file: a fix that only works by changing the test is reported, not proposed`;
  if (rules.ignorePaths.some((p) => within(file, p))) return `${file} is in an ignored path`;
  if (rules.sourcePaths.length > 0 && !rules.sourcePaths.some((p) => within(file, p))) {
    return `${file} is outside the configured source paths (${rules.sourcePaths.join(", ")})`;
  }
  return undefined;
}
