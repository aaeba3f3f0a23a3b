import { posix } from "node:path";
import type { FileRules } from "../lang/types.js";

/** Where a patch may go. Paths are repository-relative, `/`-separated. */
export interface PathRules {
  /** The repository language's file rules: its source, test and build files. */
  files: FileRules;
  /** Directories or files a patch may touch; empty means the whole repository. */
  sourcePaths: string[];
  /** Directories or files never touched nor localized into. */
  ignorePaths: string[];
  /** Files the suite collected tests from: test files even when their names do not say so. */
  testFiles?: string[];
}

/**
 * A repository-relative path in its one canonical form (`./a/../b.py` → `b.py`),
 * or undefined when it leaves the repository or is not a plain relative path.
 * Every check runs on this form, so spelling a path differently cannot pass a guard.
 */
export function normalizeRepoPath(file: string): string | undefined {
  // A backslash or NUL is a separator or terminator somewhere; no repository file needs one.
  if (file === "" || /[\\\0]/.test(file) || file.startsWith("/")) return undefined;
  const normal = posix.normalize(file).replace(/\/+$/, "");
  if (normal === "." || normal === ".." || normal.startsWith("../")) return undefined;
  return normal;
}

/** CI and packaging folders: what runs with the repository's secrets or shapes its builds. */
const CI_DIRS = [".github", ".circleci", ".gitlab", ".git", ".buildkite", ".azure-pipelines"];

/**
 * Build, packaging and CI files of every language by name (compared lowercased: a
 * case-insensitive checkout opens them too); each language adds its own (FileRules.isBuildFile).
 */
const BUILD_NAMES = new Set([
  ".gitlab-ci.yml",
  ".travis.yml",
  "azure-pipelines.yml",
  "jenkinsfile",
  ".pre-commit-config.yaml",
  "makefile",
  "gnumakefile",
  "dockerfile",
  "containerfile",
  "docker-compose.yml",
  "compose.yml",
]);

function buildFile(normal: string, files: FileRules): boolean {
  const lower = normal.toLowerCase();
  const name = lower.split("/").at(-1) ?? "";
  return (
    BUILD_NAMES.has(name) ||
    files.isBuildFile(lower) ||
    /^(dockerfile|containerfile)\./.test(name) ||
    name.endsWith(".dockerfile") ||
    name.endsWith(".mk")
  );
}

const within = (file: string, prefix: string): boolean => {
  const p = posix.normalize(prefix).replace(/\/+$/, "");
  return p === "." || file === p || file.startsWith(`${p}/`);
};

/** Why a patch may not touch `file`, or undefined when it may. */
export function forbiddenPath(file: string, rules: PathRules): string | undefined {
  const normal = normalizeRepoPath(file);
  if (normal === undefined) return `${file} is outside the repository`;
  const top = normal.toLowerCase().split("/")[0] ?? "";
  if (CI_DIRS.includes(top)) return `${file} is CI configuration (${top}/)`;
  if (buildFile(normal, rules.files)) return `${file} is a build, packaging or CI file`;
  if (!rules.files.isSourceFile(normal)) return `${file} is not ${rules.files.sourceFiles}`;
  if (rules.files.isTestFile(normal) || rules.testFiles?.includes(normal))
    return `${file} is a test file: a fix that only works by changing the test is reported, not proposed`;
  if (rules.ignorePaths.some((p) => within(normal, p))) return `${file} is in an ignored path`;
  if (rules.sourcePaths.length > 0 && !rules.sourcePaths.some((p) => within(normal, p))) {
    return `${file} is outside the configured source paths (${rules.sourcePaths.join(", ")})`;
  }
  return undefined;
}
