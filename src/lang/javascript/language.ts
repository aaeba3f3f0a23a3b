import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { Language } from "../types.js";
import { parseJsCiLog } from "./ci-log.js";
import { parseJsExperiment } from "./experiment.js";
import { jsFiles } from "./files.js";
import { NODE_LABEL } from "./images.js";
import { JS_NAMES } from "./names.js";
import { JS_PROMPTS } from "./prompt-words.js";
import { chooseNode, DEFAULT_NODE } from "./node-version.js";
import { jsTestSelection } from "./runner/detect.js";
import { createJsRuntime } from "./runtime.js";
import { detectNodeSetup, installRoot, NODE_SETUP_ENV, persistCommand } from "./setup.js";
import { readFileSync } from "node:fs";

/** The sandbox helper bundle: the runner's reporters and the command runner (helpers/). */
export const JS_HELPERS_DIR = fileURLToPath(new URL("./helpers/", import.meta.url));
const SUPERVISOR = fileURLToPath(new URL("./helpers/supervisor.cjs", import.meta.url));

/** The Node images' unreadable node (docker/sandbox-node.Dockerfile), which starts the command runner. */
const NODE_RUNNER = "/usr/local/lib/hypofix/node";

/** Node's majors whose sandbox images are looked for (docker/sandbox-node.versions). */
export const NODE_MAJORS = ["18", "20", "22", "24"] as const;

/** The work tree of a build container, where a setup's installed trees are persisted from. */
const BUILD_WORK_TREE = "/work";

/**
 * PID 1 of a Node sandbox (the image has no Python): dash ignores the signals sent from inside
 * and, waiting on its sleep, reaps every child that ends, orphans included (its wait is
 * waitpid(-1)). It holds no secret; unlike Python's init it cannot make itself non-dumpable.
 */
const INIT = ["sh", "-c", "trap '' HUP INT QUIT TERM USR1 USR2; while :; do sleep 3600 & wait $!; done"];

/** Names that say a repository is a JavaScript or TypeScript project. */
const JS_MARKERS = /^(package\.json|tsconfig\.json|jsconfig\.json|pnpm-workspace\.yaml|deno\.json)$/;

/** `.github/hypofix.yml`'s Node key: a version or range, as `.nvmrc` or `engines.node` say it. */
const nodeVersion = z
  .union([z.string(), z.number()])
  .transform(String)
  .pipe(z.string().regex(/^[\w.^~<>=| *-]+$/, 'must be a Node version or range such as "20" or ">=18"'))
  .optional();

/** The images' versions are majors; a major stands for its newest release when matching ranges. */
const asRelease = (version: string) => (/^\d+$/.test(version) ? `${version}.999.999` : version);
const majorOf = (release: string) => release.split(".")[0]!;

/** JavaScript and TypeScript on Node: Jest, Vitest, Mocha and node:test; the second language behind the port. */
export const javascript: Language = {
  ...JS_NAMES,
  prompts: JS_PROMPTS,
  // Below Python's markers: a Python project with a package.json for its docs stays Python.
  detect: ({ names }) => (names.some((n) => JS_MARKERS.test(n)) ? 0.9 : 0),
  environment: {
    images: { label: NODE_LABEL, versions: NODE_MAJORS, tagSuffix: "-node" },
    imageBase: (config) => config.env.HYPOFIX_NODE_IMAGE,
    defaultVersion: DEFAULT_NODE,
    dependencyFile:
      /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|yarn\.lock|\.yarnrc(\.yml)?|\.npmrc|\.nvmrc|\.node-version|\.tool-versions|\.pnpmfile\.cjs)$/,
    installRoot,
    versionKey: "node_version",
    chooseVersion: ({ available, fallback, configured, dependencyFiles, ciLog }) => {
      const choice = chooseNode({
        available: [...new Set(available.map((v) => asRelease(majorOf(v))))],
        fallback: majorOf(fallback),
        ...(configured ? { configured } : {}),
        ...(ciLog ? { ciLog } : {}),
        ...optional("nvmrc", dependencyFiles.get(".nvmrc")),
        ...optional("nodeVersionFile", dependencyFiles.get(".node-version")),
        ...optional("toolVersions", dependencyFiles.get(".tool-versions")),
        ...optional("packageJson", dependencyFiles.get("package.json")),
      });
      if (!choice) return { version: majorOf(fallback), reason: "default" };
      return {
        version: majorOf(choice.version),
        reason: choice.reason,
        ...(choice.asked ? { asked: choice.asked } : {}),
      };
    },
    detectSetup: (files) => {
      const plan = detectNodeSetup(files);
      if (!plan) return undefined;
      // The installed trees are copied where the environment image keeps them (setup.ts).
      return { commands: [...plan.commands, persistCommand(BUILD_WORK_TREE)], source: plan.source };
    },
    setupEnv: () => ({ ...NODE_SETUP_ENV }),
  },
  configKeys: {
    /** Node version or range of the environment, e.g. "20"; else the CI job's, .nvmrc, engines.node, the default. */
    node_version: nodeVersion,
  },
  testSelection: jsTestSelection,
  parseCiLog: (log) => parseJsCiLog(log),
  files: jsFiles,
  parseExperiment: parseJsExperiment,
  sandbox: {
    helpers: { dir: JS_HELPERS_DIR, ignore: [] },
    init: INIT,
    // The image's copy of node that the sandbox user may run but not read: the kernel makes the
    // runner non-dumpable, so the tests cannot read its key (helpers/supervisor.cjs).
    supervisor: [NODE_RUNNER, "-e", readFileSync(SUPERVISOR, "utf8")],
    env: { NODE_ENV: "test", CI: "true" },
  },
  createRuntime: (sandbox, options) => createJsRuntime(sandbox, options),
};

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value !== undefined ? { [key]: value } : {}) as Partial<Record<K, string>>;
