import path from "node:path";
import { major, valid } from "semver";
import { jsonRecord, record, yamlRecord } from "./data.js";

/*
 * How a JavaScript project's dependencies are installed in the build container,
 * read from its files as text (pure: the caller reads the files). Install scripts run
 * there and nowhere else: test sandboxes get the installed tree, never a package manager
 * run with a network.
 */

export type PackageManager = "npm" | "pnpm" | "yarn";

const LOCKFILES: [string, PackageManager][] = [
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"],
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
];

/**
 * The package manager used when `packageManager` names none, by lockfile format: the
 * last release that writes it (so a frozen install reads it as written). pnpm and Yarn 1
 * carry their tarball's sha512, which corepack checks instead of asking the registry
 * for signatures (a mirror may not serve them); corepack fetches Berry without checks
 * either way.
 */
export const DEFAULT_MANAGERS = {
  /** pnpm-lock.yaml `lockfileVersion` major → pnpm. */
  pnpm: {
    "5": "7.33.7+sha512.7afe2410642b39c698df46da4ce5c7231a5cce360698d69f8cf8f42257d40b3e43f231053b07b8de849fd4ffbf4a71ff57b835137777a352388f3d3da747200e",
    "6": "8.15.9+sha512.499434c9d8fdd1a2794ebf4552b3b25c0a633abcee5bb15e7b5de90f32f47b513aca98cd5cfd001c31f0db454bc3804edccd578501e4ca293a6816166bbd9f81",
    "9": "9.15.9+sha512.68046141893c66fad01c079231128e9afb89ef87e2691d69e4d40eee228988295fd4682181bae55b58418c3a253bde65a505ec7c5f9403ece5cc3cd37dcf2531",
  } as Record<string, string>,
  /** yarn.lock `__metadata.version` → Yarn (Berry); no metadata: Yarn 1. */
  yarn: {
    classic:
      "1.22.22+sha512.a6b2f7906b721bba3d67d4aff083df04dad64c399707841b7acf00f6b133b7ac24255f2652fa22ae3534329dc6180534e98d17432037ff6fd140556e2bb3137e",
    "4": "2.4.2",
    "6": "3.8.7",
    "8": "4.18.1",
  } as Record<string, string>,
};

export interface NodeSetupPlan {
  manager: PackageManager;
  /** The package manager's version when the plan pins one (packageManager, or the lockfile's format). */
  managerVersion?: string;
  lockfile?: string;
  /** argv of each command, run in order in the install root. */
  commands: string[][];
  /** Where the commands came from, for the report: e.g. "detected: pnpm-lock.yaml, packageManager pnpm@9.1.0". */
  source: string;
}

/**
 * The setup when the configuration names none, from the files of the install root
 * (name → text): a lockfile's own frozen install — `npm ci` (package-lock.json,
 * npm-shrinkwrap.json), `pnpm install --frozen-lockfile`, `yarn install --immutable`
 * (Berry) or `--frozen-lockfile` (Yarn 1) — pnpm and Yarn through corepack, at the
 * version `packageManager` names, else the one the lockfile's format says. Several
 * lockfiles: the one of `packageManager`'s manager, else the first of the list above.
 * A package.json with dependencies but no lockfile gets a plain install (`npm install`,
 * or `packageManager`'s): not reproducible, but the tests can run, and the environment
 * is still keyed by package.json. No package.json, or one that depends on nothing and
 * has no workspaces: undefined (the base image is the environment).
 */
export function detectNodeSetup(files: ReadonlyMap<string, string>): NodeSetupPlan | undefined {
  const manifest = jsonRecord(files.get("package.json"));
  if (!manifest && !LOCKFILES.some(([name]) => files.has(name))) return undefined;
  const declared = packageManagerField(manifest?.packageManager);
  const present = LOCKFILES.filter(([name]) => files.has(name));
  const [lockfile, manager] = present.find(([, m]) => m === declared?.manager) ??
    present[0] ?? [undefined, declared?.manager ?? "npm"];
  const found = [
    ...(lockfile ? [lockfile] : []),
    ...(declared ? [`packageManager ${declared.manager}@${declared.version}`] : []),
  ];
  if (!lockfile && !dependsOnSomething(manifest, files)) return undefined;
  const pinned = declared?.manager === manager ? undefined : defaultManager(manager, lockfile, files);
  const version = declared?.manager === manager ? declared.version : pinned?.split("+")[0];
  const source = `detected: ${found.length > 0 ? found.join(", ") : "package.json"}`;
  // A version pinned by packageManager is what corepack's shim runs; otherwise it is named.
  const via = (name: string) =>
    declared?.manager === manager ? ["corepack", name] : ["corepack", `${name}@${pinned}`];
  const base = { manager, ...(version ? { managerVersion: version } : {}), source };
  const withLock = lockfile ? { lockfile } : {};
  if (manager === "npm") {
    return { ...base, ...withLock, commands: [lockfile ? ["npm", "ci"] : ["npm", "install"]] };
  }
  if (manager === "pnpm") {
    const args = lockfile ? ["install", "--frozen-lockfile"] : ["install"];
    return { ...base, ...withLock, commands: [[...via("pnpm"), ...args]] };
  }
  const berry = version !== undefined && valid(version) !== null && major(version) >= 2;
  const args = !lockfile
    ? ["install"]
    : berry
      ? ["install", "--immutable"]
      : ["install", "--frozen-lockfile"];
  const install = [...via("yarn"), ...args];
  // Yarn 1 fetches a lockfile's resolved URLs as written, whatever registry it is given.
  const command = lockfile && !berry ? ["sh", "-c", YARN1_LOCK_TO_REGISTRY, "sh", ...install] : install;
  return { ...base, ...withLock, commands: [command] };
}

/**
 * Points the build's copy of a Yarn 1 lockfile at the registry of the setup (YARN_REGISTRY,
 * a mirror the egress proxy serves) before running the install it is given; without one,
 * runs it as is. Yarn 1 ignores NO_PROXY, and would ask the proxy's forward port for the
 * mirror, which is the proxy itself: with the lockfile naming only the mirror, it goes
 * there directly. The repository's own yarn.lock is untouched: the build works on a copy.
 */
const YARN1_LOCK_TO_REGISTRY =
  'if [ -n "${YARN_REGISTRY:-}" ]; then sed -i -e "s#https://registry.yarnpkg.com/#$YARN_REGISTRY#g" ' +
  '-e "s#https://registry.npmjs.org/#$YARN_REGISTRY#g" yarn.lock && ' +
  "unset HTTP_PROXY HTTPS_PROXY http_proxy https_proxy npm_config_proxy npm_config_https_proxy; " +
  'fi && exec "$@"';

/** `packageManager: "pnpm@9.1.0+sha512.…"` → pnpm, 9.1.0. Anything else: undefined. */
export function packageManagerField(
  value: unknown,
): { manager: PackageManager; version: string } | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^(npm|pnpm|yarn)@([^+\s]+)(\+\S+)?$/.exec(value.trim());
  if (!match || valid(match[2]!) === null) return undefined;
  return { manager: match[1] as PackageManager, version: match[2]! };
}

function defaultManager(
  manager: PackageManager,
  lockfile: string | undefined,
  files: ReadonlyMap<string, string>,
): string | undefined {
  if (manager === "npm") return undefined; // the image's own npm
  if (manager === "pnpm") {
    const lock = lockfile ? yamlRecord(files.get(lockfile)) : undefined;
    const format = String(lock?.lockfileVersion ?? "9").split(".")[0]!;
    return DEFAULT_MANAGERS.pnpm[format] ?? DEFAULT_MANAGERS.pnpm["9"];
  }
  const text = lockfile ? (files.get(lockfile) ?? "") : "";
  const berry = /^__metadata:\s*\n\s+version:\s*(\d+)/m.exec(text);
  if (berry) return DEFAULT_MANAGERS.yarn[berry[1]!] ?? DEFAULT_MANAGERS.yarn["8"];
  // A Berry project without a lockfile yet still says so with its .yarnrc.yml.
  if (!lockfile && files.has(".yarnrc.yml")) return DEFAULT_MANAGERS.yarn["8"];
  return DEFAULT_MANAGERS.yarn.classic;
}

function dependsOnSomething(
  manifest: Record<string, unknown> | undefined,
  files: ReadonlyMap<string, string>,
): boolean {
  const fields = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];
  const some = fields.some((f) => Object.keys(record(manifest?.[f]) ?? {}).length > 0);
  return some || manifest?.workspaces !== undefined || files.has("pnpm-workspace.yaml");
}

/**
 * The install root of a working directory: the nearest folder, from the working
 * directory up to the repository's root, that holds a lockfile (a workspace's package
 * installs from the workspace root); without any, the working directory itself.
 * `has` answers for a path relative to the repository.
 */
export function installRoot(workingDirectory: string, has: (repoPath: string) => boolean): string {
  const own = path.posix.normalize(workingDirectory || ".").replace(/\/+$/, "");
  const start = own === "." ? "" : own;
  for (let dir = start; ; dir = path.posix.dirname(dir)) {
    const here = dir === "." ? "" : dir;
    if (LOCKFILES.some(([name]) => has(path.posix.join(here, name)))) return here;
    if (here === "" || here === "/") return start;
  }
}

/**
 * Files (paths relative to the install root) whose content decides what an install
 * puts in the environment: a change to any of them builds a new one. The manifests of
 * every package (workspaces included; never one under node_modules), lockfiles,
 * workspace and package-manager settings, patches applied at install time, and a
 * Yarn release or plugin the repository carries.
 */
export function isNodeDependencyFile(relPath: string): boolean {
  const parts = relPath.split("/");
  if (parts.includes("node_modules")) return false;
  const name = parts[parts.length - 1]!;
  if (
    /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|yarn\.lock|\.yarnrc\.yml|\.yarnrc|\.npmrc|\.pnpmfile\.cjs)$/.test(
      name,
    )
  ) {
    return true;
  }
  return /^(patches|\.yarn\/patches|\.yarn\/releases|\.yarn\/plugins)\//.test(relPath);
}

/**
 * A dependency file's content as it enters the environment's key: .npmrc and
 * .yarnrc.yml without their credential lines (tokens, passwords, auth, certificates),
 * so a rotated token neither rebuilds the environment nor reaches the key.
 */
export function keyContent(relPath: string, content: string): string {
  const name = relPath.split("/").pop();
  if (name === ".npmrc" || name === ".yarnrc") {
    return keepLines(content, (line) => {
      const key = line
        .split("=")[0]!
        .trim()
        .replace(/^\/\/[^:]*:/, "");
      return !/^(_authToken|_auth|_password|password|username|email|certfile|keyfile|cert|key|always-auth)$/i.test(
        key.replace(/^"|"$/g, ""),
      );
    });
  }
  if (name === ".yarnrc.yml") {
    return keepLines(content, (line) => !/^\s*(npmAuthToken|npmAuthIdent|npmAlwaysAuth)\s*:/.test(line));
  }
  return content;
}

function keepLines(content: string, keep: (line: string) => boolean): string {
  return content
    .split(/\r?\n/)
    .filter((line) => keep(line))
    .join("\n");
}

/**
 * The setup's own variables (a Language's setupEnv): corepack fetches Yarn Berry from
 * the npm registry, which the setup may reach, rather than from repo.yarnpkg.com, which
 * it may not. A mirror of the egress proxy overrides it (src/sandbox/egress-squid.ts sets
 * every JavaScript tool's registry variable to the mirror).
 */
export const NODE_SETUP_ENV: Readonly<Record<string, string>> = {
  COREPACK_NPM_REGISTRY: "https://registry.npmjs.org",
};

/**
 * The installed trees (every node_modules, Yarn's Plug'n'Play files and project
 * cache) live in the working tree, which the build container keeps on a tmpfs that
 * the environment image does not keep. The last setup command copies them, paths
 * relative to the working tree, under PERSISTED_DIR, which the image keeps;
 * RESTORE_COMMAND, run in a test sandbox after the repository is copied in, puts them
 * back where the package manager left them, so every relative link still holds.
 */
export const PERSISTED_DIR = "/opt/hypofix/work";

export const persistCommand = (workTree: string): string[] => [
  "sh",
  "-c",
  [
    'cd "$1"',
    'mkdir -p "$2"',
    'find . \\( -name node_modules -type d -prune -exec cp -a --parents -t "$2" -- {} + \\) -o ' +
      "\\( \\( -name '.pnp.*' -o -path '*/.yarn/unplugged' -o -path '*/.yarn/cache' -o -path '*/.yarn/install-state.gz' \\) " +
      '-prune -exec cp -a --parents -t "$2" -- {} + \\)',
  ].join(" && "),
  "sh",
  workTree,
  PERSISTED_DIR,
];

export const restoreCommand = (workTree: string): string[] => [
  "sh",
  "-c",
  'if [ -d "$2" ]; then cp -a -- "$2/." "$1/"; fi',
  "sh",
  workTree,
  PERSISTED_DIR,
];
