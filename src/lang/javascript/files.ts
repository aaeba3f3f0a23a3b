import type { FileRules } from "../types.js";
import { isJavaScriptSource } from "./parse.js";
import { FILE_SEPARATOR } from "./runner/ids.js";

/** Folders whose files are tests, fixtures or mocks wherever they sit. */
const TEST_DIRS = new Set([
  "test",
  "tests",
  "__tests__",
  "spec",
  "__mocks__",
  "__fixtures__",
  "fixtures",
  "e2e",
]);
/** Folders that hold what a build or an install made: never sources to patch. */
const GENERATED_DIRS = new Set(["node_modules", "dist", "build", "coverage", "out", ".next", ".nuxt"]);
/** A test by its name: `cart.test.ts`, `cart.spec.js`, `cart_test.mjs`. */
const TEST_NAME = /(^|[._-])(test|spec)s?\.[cm]?[jt]sx?$/i;
/** Package and tool files whose running installs or configures the code (lowercased). */
const BUILD_NAMES =
  /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|yarn\.lock|\.npmrc|\.yarnrc(\.yml)?|\.nvmrc|\.node-version|\.pnpmfile\.cjs|tsconfig(\..*)?\.json|jsconfig\.json|\.babelrc(\..*)?|\.mocharc\..*|\.swcrc|(babel|jest|vitest|vite|webpack|rollup|esbuild|tsup|eslint|prettier|karma|playwright)\.config\.[cm]?[jt]s(on)?|gulpfile\.[cm]?[jt]s|gruntfile\.[cm]?[jt]s)$/;

/** Which files of a JavaScript/TypeScript repository are what, by repository-relative path. */
export const jsFiles: FileRules = {
  isTestFile(path) {
    const parts = path.split("/");
    const name = parts.at(-1) ?? "";
    return TEST_NAME.test(name) || parts.slice(0, -1).some((d) => TEST_DIRS.has(d));
  },
  isSourceFile(path) {
    const parts = path.split("/");
    if (parts.slice(0, -1).some((d) => GENERATED_DIRS.has(d))) return false;
    return isJavaScriptSource(path) && !/\.d\.[cm]?ts$/.test(path) && !/\.min\.js$/.test(path);
  },
  sourceFiles: "a JavaScript or TypeScript source file (.js, .mjs, .cjs, .jsx, .ts, .mts, .cts, .tsx)",
  isBuildFile(lowerPath) {
    return BUILD_NAMES.test(lowerPath.split("/").at(-1) ?? "");
  },
  // A test id is `path/to/file.test.ts::Suite > test name`.
  testFileOf: (testId) => {
    const at = testId.indexOf(FILE_SEPARATOR);
    return at < 0 ? testId : testId.slice(0, at);
  },
};
