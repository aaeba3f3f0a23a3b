import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createGunzip } from "node:zlib";
import express from "express";
import { rcompare, valid } from "semver";
import { extract } from "tar-stream";
import { parse as parseYaml } from "yaml";
import { record, str } from "../../src/lang/javascript/data.js";
import { detectNodeSetup } from "../../src/lang/javascript/setup.js";
import { mapLimit } from "./stats.js";

/*
 * A local npm registry for tests and benchmarks: no setup in them reaches the public
 * registry. Filling it is provisioning (scripts/npm-mirror.ts, run by
 * scripts/provision.sh, the one step allowed to use the npm registry): the packages
 * of every lockfile given (test fixtures', the corpora's) are fetched with `npm pack`,
 * checked against the lockfile's integrity, and laid out as the registry lays them out
 * (`<name>/-/<file>.tgz`), with each version's manifest read from its own tarball. A
 * test then serves that folder over HTTP (startNpmMirror): tarballs as static files,
 * packuments built from the manifests with tarball URLs pointing at the mirror itself.
 */

export const npmMirrorDir = (): string =>
  process.env.HYPOFIX_NPM_MIRROR_DIR ?? path.join(homedir(), ".cache", "hypofix", "npm-mirror");

const LOCKFILE_NAMES = new Set(["package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock"]);
/** The sandbox images' platform: packages for another one are never installed there. */
const PLATFORM = { os: "linux", cpu: "x64", libc: "glibc" };

export interface LockedPackage {
  name: string;
  version: string;
  /** The lockfile's integrity (sha512-…, or sha1-… in old lockfiles), when it records one. */
  integrity?: string;
}

/** The registry's signatures of a tarball (corepack checks them on the package managers it downloads). */
type Signatures = { keyid: string; sig: string }[];

/**
 * The registry packages a lockfile installs on the sandbox's platform (linux, x64,
 * glibc): package-lock.json / npm-shrinkwrap.json (every lockfileVersion),
 * pnpm-lock.yaml (5 to 9) and yarn.lock (Yarn 1 and Berry). Workspace links, git, file
 * and tarball-URL dependencies, and packages bundled inside another, are not fetched
 * from a registry and are left out.
 */
export function lockedPackages(fileName: string, text: string): LockedPackage[] {
  const name = path.basename(fileName);
  const found =
    name === "pnpm-lock.yaml"
      ? pnpmPackages(text)
      : name === "yarn.lock"
        ? yarnPackages(text)
        : npmPackages(JSON.parse(text) as Record<string, unknown>);
  const seen = new Map<string, LockedPackage>();
  for (const p of found) if (valid(p.version) !== null) seen.set(`${p.name}@${p.version}`, p);
  return [...seen.values()];
}

function npmPackages(lock: Record<string, unknown>): LockedPackage[] {
  const out: LockedPackage[] = [];
  const packages = record(lock.packages);
  if (packages) {
    for (const [key, value] of Object.entries(packages)) {
      const entry = record(value);
      // A key outside node_modules is the root or a workspace's own folder, never fetched.
      if (!key.includes("node_modules/") || !entry || entry.link || entry.inBundle || !onPlatform(entry))
        continue;
      if (typeof entry.resolved === "string" && !isRegistryTarball(entry.resolved)) continue;
      const name = str(entry.name) ?? key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
      const version = str(entry.version);
      if (version) out.push(locked(name, version, entry.integrity));
    }
    return out;
  }
  // lockfileVersion 1: a tree of dependencies; an alias's version is "npm:<name>@<version>".
  const walk = (deps: Record<string, unknown> | undefined) => {
    for (const [key, value] of Object.entries(deps ?? {})) {
      const entry = record(value);
      if (!entry || entry.bundled) continue;
      const alias = /^npm:((?:@[^/]+\/)?[^@]+)@(.+)$/.exec(str(entry.version) ?? "");
      const resolved = str(entry.resolved);
      if (!resolved || isRegistryTarball(resolved)) {
        out.push(locked(alias?.[1] ?? key, alias?.[2] ?? str(entry.version) ?? "", entry.integrity));
      }
      walk(record(entry.dependencies));
    }
  };
  walk(record(lock.dependencies));
  return out;
}

function pnpmPackages(text: string): LockedPackage[] {
  // A broken lockfile throws: a fixture that installs nothing must not pass for one that is mirrored.
  const lock = record(parseYaml(text));
  const format = Number.parseFloat(String(lock?.lockfileVersion ?? "9"));
  const out: LockedPackage[] = [];
  for (const [key, value] of Object.entries(record(lock?.packages) ?? {})) {
    const entry = record(value);
    if (!entry || !onPlatform(entry)) continue;
    const resolution = record(entry.resolution);
    if (!resolution || (resolution.tarball !== undefined && !isRegistryTarball(String(resolution.tarball))))
      continue;
    if (resolution.type !== undefined) continue; // git or directory
    // 9: "name@1.0.0"; 6-8: "/name@1.0.0(peer@2.0.0)"; 5: "/name/1.0.0_peer@2.0.0".
    const id = key.replace(/^\//, "").replace(/\(.*$/, "");
    const at = format >= 6 ? id.lastIndexOf("@") : id.lastIndexOf("/");
    if (at <= 0) continue;
    const name = str(entry.name) ?? id.slice(0, at);
    const version = str(entry.version) ?? id.slice(at + 1).replace(/_.*$/, "");
    out.push(locked(name, version, resolution.integrity));
  }
  return out;
}

function yarnPackages(text: string): LockedPackage[] {
  if (/^__metadata:/m.test(text)) {
    const out: LockedPackage[] = [];
    for (const [key, value] of Object.entries(record(parseYaml(text)) ?? {})) {
      const entry = record(value);
      const resolution = /^((?:@[^/]+\/)?[^@]+)@npm:(.+)$/.exec(str(entry?.resolution) ?? "");
      if (key === "__metadata" || !entry || !resolution) continue;
      if (!berryConditionsHold(str(entry.conditions))) continue;
      // Berry's checksum is of its own zip, not of the tarball: nothing to check the download against.
      out.push({ name: resolution[1]!, version: resolution[2]! });
    }
    return out;
  }
  const out: LockedPackage[] = [];
  for (const block of text.split(/\n(?=\S)/)) {
    const version = /^\s+version "([^"]+)"/m.exec(block)?.[1];
    const resolved = /^\s+resolved "([^"]+)"/m.exec(block)?.[1];
    if (!version || !resolved || !isRegistryTarball(resolved)) continue;
    const name = tarballName(resolved);
    const integrity = /^\s+integrity (\S+)/m.exec(block)?.[1];
    const sha1 = /#([0-9a-f]{40})$/.exec(resolved)?.[1];
    if (!name) continue;
    out.push(
      locked(
        name,
        version,
        integrity ?? (sha1 ? `sha1-${Buffer.from(sha1, "hex").toString("base64")}` : undefined),
      ),
    );
  }
  return out;
}

const locked = (name: string, version: string, integrity: unknown): LockedPackage =>
  typeof integrity === "string" && integrity ? { name, version, integrity } : { name, version };

/** A URL of the registry's tarball layout: …/<name>/-/<file>.tgz. */
const isRegistryTarball = (url: string): boolean => /^https?:\/\/[^#]*\/-\/[^/#]+\.tgz(#.*)?$/.test(url);

/** The package name in a registry tarball URL (…/@scope/name/-/name-1.0.0.tgz). */
function tarballName(url: string): string | undefined {
  const match = /\/((?:@[^/]+\/)?[^/@]+)\/-\/[^/]+\.tgz(#.*)?$/.exec(
    new URL(url).pathname + new URL(url).hash,
  );
  return match ? decodeURIComponent(match[1]!) : undefined;
}

function onPlatform(entry: Record<string, unknown>): boolean {
  return (["os", "cpu", "libc"] as const).every((field) => {
    const wanted = entry[field];
    const list = Array.isArray(wanted) ? wanted.map(String) : typeof wanted === "string" ? [wanted] : [];
    if (list.length === 0) return true;
    if (list.includes(`!${PLATFORM[field]}`)) return false;
    const positive = list.filter((v) => !v.startsWith("!"));
    return positive.length === 0 || positive.includes(PLATFORM[field]);
  });
}

/** Berry's `conditions: os=darwin & cpu=arm64`. */
function berryConditionsHold(conditions: string | undefined): boolean {
  if (!conditions) return true;
  return conditions.split("&").every((part) => {
    const [field, value] = part.split("=").map((s) => s.trim());
    return !(field && field in PLATFORM) || PLATFORM[field as keyof typeof PLATFORM] === value;
  });
}

/**
 * What installing from a lockfile needs from the registry: its packages, and the
 * package manager corepack would download for it (pnpm, Yarn 1, or Berry's
 * @yarnpkg/cli-dist), read from the package.json beside it.
 */
export async function mirrorSpecs(lockfiles: string[]): Promise<LockedPackage[]> {
  const specs = new Map<string, LockedPackage>();
  for (const file of lockfiles) {
    const text = await readFile(file, "utf8");
    const dir = path.dirname(file);
    const siblings = new Map([[path.basename(file), text]]);
    const manifest = await readFile(path.join(dir, "package.json"), "utf8").catch(() => undefined);
    if (manifest !== undefined) siblings.set("package.json", manifest);
    const plan = detectNodeSetup(siblings);
    const manager =
      plan?.manager === "pnpm" && plan.managerVersion
        ? { name: "pnpm", version: plan.managerVersion }
        : plan?.manager === "yarn" && plan.managerVersion
          ? {
              name: Number.parseInt(plan.managerVersion, 10) >= 2 ? "@yarnpkg/cli-dist" : "yarn",
              version: plan.managerVersion,
            }
          : undefined;
    for (const p of [...lockedPackages(file, text), ...(manager ? [manager] : [])]) {
      specs.set(`${p.name}@${p.version}`, p);
    }
  }
  return [...specs.values()];
}

/** Every lockfile under the given folders, never inside node_modules. */
export async function findLockfiles(roots: string[]): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (entry.name === "node_modules" || entry.name === ".git") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && LOCKFILE_NAMES.has(entry.name)) found.push(full);
    }
  };
  for (const root of roots) await walk(root);
  return found.sort();
}

const tarballPath = (dir: string, name: string, version: string) =>
  path.join(dir, "tarballs", name, "-", `${name.split("/").pop()}-${version}.tgz`);
const manifestPath = (dir: string, name: string, version: string) =>
  path.join(dir, "manifests", name, `${version}.json`);

/** The packages of `specs` the mirror folder does not hold. */
export async function missingFromMirror(
  specs: LockedPackage[],
  dir: string = npmMirrorDir(),
): Promise<LockedPackage[]> {
  const missing: LockedPackage[] = [];
  for (const spec of specs) {
    const have = await stat(manifestPath(dir, spec.name, spec.version)).catch(() => undefined);
    if (!have) missing.push(spec);
  }
  return missing;
}

export interface FillReport {
  fetched: string[];
  present: number;
}

/**
 * Fetches into `dir` every package of `specs` it does not hold yet, with the host's
 * npm (`npm pack`, several at once), and checks each against the lockfile's integrity.
 * A mismatch or a failed download throws, naming the package.
 */
export async function fillNpmMirror(
  specs: LockedPackage[],
  dir: string = npmMirrorDir(),
  log: (line: string) => void = () => {},
): Promise<FillReport> {
  const missing = await missingFromMirror(specs, dir);
  const scratch = await mkdtemp(path.join(tmpdir(), "hypofix-npm-mirror-"));
  try {
    const batches: LockedPackage[][] = [];
    for (let i = 0; i < missing.length; i += 40) batches.push(missing.slice(i, i + 40));
    let done = 0;
    // A few npm processes at once: each fetches its batch one package after another.
    await mapLimit(batches, 4, async (batch, index) => {
      const dest = path.join(scratch, String(index));
      await mkdir(dest, { recursive: true });
      const packed = await npmPack(
        batch.map((p) => `${p.name}@${p.version}`),
        dest,
      );
      for (const spec of batch) {
        const file = packed.get(`${spec.name}@${spec.version}`);
        if (!file) throw new Error(`npm pack gave no tarball for ${spec.name}@${spec.version}`);
        // No lockfile names a package manager: the registry's own record checks it, and signs it.
        const dist = spec.integrity ? undefined : await registryDist(`${spec.name}@${spec.version}`);
        await store(
          dir,
          dist ? { ...spec, integrity: dist.integrity } : spec,
          path.join(dest, file),
          dist?.signatures,
        );
      }
      done += batch.length;
      log(`npm mirror: ${done}/${missing.length} fetched`);
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { fetched: missing.map((p) => `${p.name}@${p.version}`), present: specs.length - missing.length };
}

async function npmPack(specs: string[], dest: string): Promise<Map<string, string>> {
  const { stdout } = await promisify(execFile)(
    "npm",
    ["pack", ...specs, "--json", "--ignore-scripts", "--pack-destination", dest],
    { maxBuffer: 256 * 1024 * 1024, cwd: dest },
  ).catch((err: unknown) => {
    const stderr = (err as { stderr?: string }).stderr ?? "";
    throw new Error(`npm pack ${specs.join(" ")} failed: ${stderr.trim().split("\n").slice(-5).join("\n")}`);
  });
  const packed = JSON.parse(stdout) as { name: string; version: string; filename: string }[];
  return new Map(packed.map((p) => [`${p.name}@${p.version}`, p.filename]));
}

async function registryDist(spec: string): Promise<{ integrity: string; signatures?: Signatures }> {
  const { stdout } = await promisify(execFile)("npm", ["view", spec, "dist", "--json"]);
  const dist = record(JSON.parse(stdout));
  const integrity = str(dist?.integrity);
  if (!integrity) throw new Error(`the registry records no integrity for ${spec}`);
  const signatures = Array.isArray(dist?.signatures) ? (dist.signatures as Signatures) : undefined;
  return { integrity, ...(signatures ? { signatures } : {}) };
}

/** Moves one downloaded tarball into the layout, with its manifest; checks it first. */
async function store(dir: string, spec: LockedPackage, file: string, signatures?: Signatures): Promise<void> {
  const bytes = await readFile(file);
  const sha512 = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  const sha1 = createHash("sha1").update(bytes).digest();
  if (spec.integrity && !integrityMatches(spec.integrity, bytes)) {
    throw new Error(
      `${spec.name}@${spec.version}: the tarball's integrity ${sha512} is not the lockfile's ${spec.integrity}`,
    );
  }
  const { manifest, hasInstallScript, hasShrinkwrap } = await readManifest(file);
  const tarball = tarballPath(dir, spec.name, spec.version);
  const relative = `/${path.relative(path.join(dir, "tarballs"), tarball).split(path.sep).join("/")}`;
  const doc = {
    ...manifest,
    name: spec.name,
    version: spec.version,
    ...(hasInstallScript ? { hasInstallScript: true } : {}),
    ...(hasShrinkwrap ? { _hasShrinkwrap: true } : {}),
    dist: {
      integrity: sha512,
      shasum: sha1.toString("hex"),
      tarball: relative,
      ...(signatures ? { signatures } : {}),
    },
  };
  await mkdir(path.dirname(tarball), { recursive: true });
  await rename(file, tarball).catch(async () => writeFile(tarball, bytes));
  const target = manifestPath(dir, spec.name, spec.version);
  await mkdir(path.dirname(target), { recursive: true });
  // The manifest last, and whole: a package is in the mirror once its manifest is.
  await writeFile(`${target}.tmp`, JSON.stringify(doc));
  await rename(`${target}.tmp`, target);
}

function integrityMatches(integrity: string, bytes: Buffer): boolean {
  return integrity.split(/\s+/).some((entry) => {
    const [algorithm, digest] = [entry.slice(0, entry.indexOf("-")), entry.slice(entry.indexOf("-") + 1)];
    if (!["sha512", "sha384", "sha256", "sha1"].includes(algorithm)) return false;
    return createHash(algorithm).update(bytes).digest("base64") === digest;
  });
}

/** Fields of a package.json that installing needs; the rest (readme, scripts' bodies aside) stays in the tarball. */
const MANIFEST_FIELDS = [
  "dependencies",
  "optionalDependencies",
  "peerDependencies",
  "peerDependenciesMeta",
  "bundleDependencies",
  "bundledDependencies",
  "bin",
  "directories",
  "engines",
  "os",
  "cpu",
  "libc",
  "deprecated",
  "license",
  "scripts",
];

async function readManifest(
  file: string,
): Promise<{ manifest: Record<string, unknown>; hasInstallScript: boolean; hasShrinkwrap: boolean }> {
  let manifest: Record<string, unknown> | undefined;
  let gyp = false;
  let hasShrinkwrap = false;
  const entries = extract();
  const done = new Promise<void>((resolve, reject) => {
    entries.on("entry", (header, stream, next) => {
      const parts = header.name.split("/");
      const top = parts.length === 2;
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => {
        if (top && parts[1] === "package.json") chunks.push(c as Buffer);
      });
      stream.on("end", () => {
        if (top && parts[1] === "package.json")
          manifest = record(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        if (top && parts[1] === "binding.gyp") gyp = true;
        if (top && parts[1] === "npm-shrinkwrap.json") hasShrinkwrap = true;
        next();
      });
      stream.resume();
    });
    entries.on("finish", resolve);
    entries.on("error", reject);
  });
  createReadStream(file).pipe(createGunzip()).pipe(entries);
  await done;
  if (!manifest) throw new Error(`${file}: no package.json in the tarball`);
  const scripts = record(manifest.scripts) ?? {};
  const hasInstallScript =
    ["preinstall", "install", "postinstall"].some((s) => typeof scripts[s] === "string") ||
    (gyp && manifest.gypfile !== false);
  const kept = Object.fromEntries(
    MANIFEST_FIELDS.filter((f) => f in manifest!).map((f) => [f, manifest![f]]),
  );
  return { manifest: kept, hasInstallScript, hasShrinkwrap };
}

export interface MirrorRequest {
  method: string;
  path: string;
  status: number;
}

export interface NpmMirror {
  /** The registry URL to give npm (`--registry`, npm_config_registry), with a trailing slash. */
  url: string;
  host: string;
  port: number;
  /** Every request served, in order. */
  requests: MirrorRequest[];
  close(): Promise<void>;
}

const PACKAGE_NAME = /^(?:@[a-z0-9~][\w.~-]*\/)?[a-z0-9~][\w.~-]*$/i;

/**
 * Serves the mirror folder as an npm registry on `host:port` (port 0: any free one):
 * `/<name>` (a packument of every version the folder holds), `/<name>/<version|tag>`,
 * and the tarballs. Tarball URLs in the documents point at `publicUrl` (default: the
 * address the client used, from its Host header), so a mirror behind a proxy or a
 * container's view of the host is written as the client reaches it. Unknown names are
 * 404s, and every request is recorded (`requests`).
 */
export async function startNpmMirror(
  options: { dir?: string; host?: string; port?: number; publicUrl?: string } = {},
): Promise<NpmMirror> {
  const dir = options.dir ?? npmMirrorDir();
  const host = options.host ?? "127.0.0.1";
  const requests: MirrorRequest[] = [];
  const app = express();
  app.disable("x-powered-by");
  app.use((req, res, next) => {
    res.on("finish", () => requests.push({ method: req.method, path: req.path, status: res.statusCode }));
    next();
  });
  app.get("/-/ping", (_req, res) => {
    res.json({});
  });
  app.use((req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const decoded = decodeURIComponent(req.path).slice(1);
    const scoped = decoded.startsWith("@");
    const parts = decoded.split("/");
    const nameParts = scoped ? 2 : 1;
    const name = parts.slice(0, nameParts).join("/");
    const rest = parts.slice(nameParts);
    if (!PACKAGE_NAME.test(name) || rest.length > 1 || rest[0] === "-") return next();
    const base = (options.publicUrl ?? `http://${req.headers.host ?? `${host}`}`).replace(/\/$/, "");
    packument(dir, name, base)
      .then((doc) => {
        if (!doc) return next();
        if (rest.length === 0) return res.json(doc);
        const version = doc["dist-tags"][rest[0]!] ?? rest[0]!;
        const manifest = doc.versions[version];
        return manifest ? res.json(manifest) : next();
      })
      .catch(next);
  });
  app.use(express.static(path.join(dir, "tarballs"), { index: false, dotfiles: "deny", fallthrough: true }));
  app.use((_req, res) => {
    res.status(404).json({ error: "not found" });
  });
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/`,
    host,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

interface Packument {
  name: string;
  "dist-tags": Record<string, string>;
  versions: Record<string, Record<string, unknown> & { dist: { tarball: string } }>;
}

async function packument(dir: string, name: string, base: string): Promise<Packument | undefined> {
  const folder = path.join(dir, "manifests", name);
  const files = await readdir(folder).catch(() => [] as string[]);
  const versions: Packument["versions"] = {};
  for (const file of files.filter((f) => f.endsWith(".json"))) {
    const doc = JSON.parse(await readFile(path.join(folder, file), "utf8")) as Packument["versions"][string];
    versions[String(doc.version)] = { ...doc, dist: { ...doc.dist, tarball: `${base}${doc.dist.tarball}` } };
  }
  const sorted = Object.keys(versions).sort(rcompare);
  if (sorted.length === 0) return undefined;
  return { name, "dist-tags": { latest: sorted.find((v) => !v.includes("-")) ?? sorted[0]! }, versions };
}
