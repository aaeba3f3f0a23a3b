/**
 * `npm run build` (and `npm pack`'s prepack): compiles src/ to dist/ and copies beside the
 * JavaScript the files it reads at run time from its own folder (the languages' in-sandbox
 * helpers, runners and rule lists), so dist/ runs without src/.
 */
import { execFileSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const dist = join(root, "dist");

/** Files of src/ that dist/ needs as they are: everything but the TypeScript and the notes for people. */
const isAsset = (path: string): boolean =>
  !path.endsWith(".ts") && !path.endsWith(".md") && !path.split(/[\\/]/).includes("__pycache__");

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
cpSync(src, dist, { recursive: true, filter: (from) => isAsset(from) });
process.stderr.write("build: dist/ compiled, with its run-time files\n");
