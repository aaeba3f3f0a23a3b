/**
 * Fills the npm mirror that tests and benchmarks install from (bench/lib/npm-mirror.ts):
 *
 *   npx tsx scripts/npm-mirror.ts [LOCKFILE|DIR ...]
 *
 * With no argument, every lockfile under test/fixtures and bench. Provisioning, not a
 * test: it uses this host's npm and its registry. The folder is HYPOFIX_NPM_MIRROR_DIR,
 * default ~/.cache/hypofix/npm-mirror; what it already holds is not fetched again.
 */
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { fillNpmMirror, findLockfiles, mirrorSpecs, npmMirrorDir } from "../bench/lib/npm-mirror.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const targets = args.length > 0 ? args : [`${root}test/fixtures`, `${root}bench`];
const lockfiles: string[] = [];
for (const target of targets) {
  if ((await stat(target)).isDirectory()) lockfiles.push(...(await findLockfiles([target])));
  else lockfiles.push(target);
}
const specs = await mirrorSpecs(lockfiles);
const started = Date.now();
const report = await fillNpmMirror(specs, npmMirrorDir(), (line) => console.error(line));
console.error(
  `npm mirror: ${specs.length} packages from ${lockfiles.length} lockfiles in ${npmMirrorDir()}: ` +
    `${report.fetched.length} fetched, ${report.present} already there (${Math.round((Date.now() - started) / 1000)} s)`,
);
