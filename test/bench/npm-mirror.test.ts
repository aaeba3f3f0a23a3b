import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { pack } from "tar-stream";
import { afterAll, describe, expect, it } from "vitest";
import { lockedPackages, mirrorSpecs, startNpmMirror, type NpmMirror } from "../../bench/lib/npm-mirror.js";
import { assertMirrorHolds } from "../helpers/npm-mirror.js";

const names = (text: string, file: string) =>
  lockedPackages(file, text)
    .map((p) => `${p.name}@${p.version}`)
    .sort();

describe("lockedPackages", () => {
  it("reads package-lock.json v2/v3 packages on this platform, never links, bundled or git ones", () => {
    const lock = {
      lockfileVersion: 3,
      packages: {
        "": { name: "app" },
        "node_modules/mocha": {
          version: "11.8.0",
          resolved: "https://registry.npmjs.org/mocha/-/mocha-11.8.0.tgz",
          integrity: "sha512-abc",
        },
        "node_modules/mocha/node_modules/ms": { version: "2.1.3" },
        "node_modules/string-width-cjs": {
          name: "string-width",
          version: "4.2.3",
          resolved: "https://registry.npmjs.org/string-width/-/string-width-4.2.3.tgz",
        },
        "node_modules/@esbuild/linux-x64": { version: "0.25.0", os: ["linux"], cpu: ["x64"] },
        "node_modules/@esbuild/darwin-arm64": { version: "0.25.0", os: ["darwin"], cpu: ["arm64"] },
        "node_modules/@rollup/rollup-linux-x64-musl": {
          version: "4.0.0",
          os: ["linux"],
          cpu: ["x64"],
          libc: ["musl"],
        },
        "node_modules/fsevents": { version: "2.3.3", os: ["!linux"] },
        "node_modules/npm/node_modules/abbrev": { version: "1.0.0", inBundle: true },
        "node_modules/local": { resolved: "packages/local", link: true },
        "packages/local": { name: "local", version: "1.0.0" },
        "node_modules/forked": { version: "1.0.0", resolved: "git+ssh://git@github.com/a/forked.git#abc" },
      },
    };
    expect(names(JSON.stringify(lock), "package-lock.json")).toEqual([
      "@esbuild/linux-x64@0.25.0",
      "mocha@11.8.0",
      "ms@2.1.3",
      "string-width@4.2.3",
    ]);
    expect(lockedPackages("package-lock.json", JSON.stringify(lock))).toContainEqual({
      name: "mocha",
      version: "11.8.0",
      integrity: "sha512-abc",
    });
  });

  it("walks a lockfileVersion 1 tree, aliases included", () => {
    const lock = {
      lockfileVersion: 1,
      dependencies: {
        chai: { version: "4.3.7", integrity: "sha1-x", dependencies: { "deep-eql": { version: "4.1.3" } } },
        "wrap-cjs": { version: "npm:wrap-ansi@7.0.0" },
        inner: { version: "1.0.0", bundled: true },
        gitdep: {
          version: "git+https://github.com/a/b.git#abc",
          resolved: "git+https://github.com/a/b.git#abc",
        },
      },
    };
    expect(names(JSON.stringify(lock), "npm-shrinkwrap.json")).toEqual([
      "chai@4.3.7",
      "deep-eql@4.1.3",
      "wrap-ansi@7.0.0",
    ]);
  });

  it("reads pnpm-lock.yaml keys of formats 9, 6 and 5", () => {
    const v9 = [
      "lockfileVersion: '9.0'",
      "packages:",
      "  '@babel/core@7.29.16':",
      "    resolution: {integrity: sha512-a}",
      "  vitest@3.2.7:",
      "    resolution: {integrity: sha512-b}",
      "  '@esbuild/win32-x64@0.25.0':",
      "    resolution: {integrity: sha512-c}",
      "    os: [win32]",
      "  forked@https://codeload.github.com/a/forked/tar.gz/abc:",
      "    resolution: {tarball: https://codeload.github.com/a/forked/tar.gz/abc}",
      "  gitdep@git+https://github.com/a/b.git#abc:",
      "    resolution: {type: git, repo: https://github.com/a/b.git, commit: abc}",
    ].join("\n");
    expect(names(v9, "pnpm-lock.yaml")).toEqual(["@babel/core@7.29.16", "vitest@3.2.7"]);
    const v6 =
      "lockfileVersion: '6.0'\npackages:\n  /ts-jest@29.1.0(jest@29.7.0)(typescript@5.4.0):\n    resolution: {integrity: sha512-d}\n";
    expect(names(v6, "pnpm-lock.yaml")).toEqual(["ts-jest@29.1.0"]);
    const v5 =
      "lockfileVersion: 5.4\npackages:\n  /@types/node/20.1.0:\n    resolution: {integrity: sha512-e}\n  /ts-jest/29.1.0_jest@29.7.0:\n    resolution: {integrity: sha512-f}\n";
    expect(names(v5, "pnpm-lock.yaml")).toEqual(["@types/node@20.1.0", "ts-jest@29.1.0"]);
  });

  it("reads Yarn 1's resolved URLs and Berry's npm resolutions", () => {
    const classic = [
      "# yarn lockfile v1",
      "",
      '"@babel/code-frame@^7.0.0", "@babel/code-frame@^7.22.13":',
      '  version "7.22.13"',
      '  resolved "https://registry.yarnpkg.com/@babel/code-frame/-/code-frame-7.22.13.tgz#e3c1c099402598483b7a8c46a721d1038803755e"',
      "  integrity sha512-xyz",
      "",
      "left-pad@^1.3.0:",
      '  version "1.3.0"',
      '  resolved "https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#5b8a3a7765dfe001261dde915589e782f8c94d1e"',
      "",
      '"forked@github:a/forked":',
      '  version "1.0.0"',
      '  resolved "https://codeload.github.com/a/forked/tar.gz/abc"',
    ].join("\n");
    expect(lockedPackages("yarn.lock", classic)).toEqual([
      { name: "@babel/code-frame", version: "7.22.13", integrity: "sha512-xyz" },
      {
        name: "left-pad",
        version: "1.3.0",
        integrity: `sha1-${Buffer.from("5b8a3a7765dfe001261dde915589e782f8c94d1e", "hex").toString("base64")}`,
      },
    ]);
    const berry = [
      "__metadata:",
      "  version: 8",
      "",
      '"mocha@npm:^11.0.0":',
      "  version: 11.8.0",
      '  resolution: "mocha@npm:11.8.0"',
      '"@esbuild/darwin-arm64@npm:0.25.0":',
      "  version: 0.25.0",
      '  resolution: "@esbuild/darwin-arm64@npm:0.25.0"',
      "  conditions: os=darwin & cpu=arm64",
      '"app@workspace:.":',
      "  version: 0.0.0-use.local",
      '  resolution: "app@workspace:."',
    ].join("\n");
    expect(lockedPackages("yarn.lock", berry)).toEqual([{ name: "mocha", version: "11.8.0" }]);
  });
});

describe("mirrorSpecs", () => {
  it("adds the package manager corepack would download for a lockfile", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hypofix-mirror-specs-"));
    await mkdir(path.join(dir, "p"));
    await mkdir(path.join(dir, "b"));
    await writeFile(path.join(dir, "p", "package.json"), JSON.stringify({ name: "p" }));
    await writeFile(path.join(dir, "p", "pnpm-lock.yaml"), "lockfileVersion: '9.0'\npackages: {}\n");
    await writeFile(
      path.join(dir, "b", "package.json"),
      JSON.stringify({ name: "b", packageManager: "yarn@4.5.0" }),
    );
    await writeFile(path.join(dir, "b", "yarn.lock"), "__metadata:\n  version: 8\n");
    const specs = await mirrorSpecs([
      path.join(dir, "p", "pnpm-lock.yaml"),
      path.join(dir, "b", "yarn.lock"),
    ]);
    expect(specs).toEqual([
      { name: "pnpm", version: "9.15.9" },
      { name: "@yarnpkg/cli-dist", version: "4.5.0" },
    ]);
  });
});

/** A mirror folder laid out as fillNpmMirror lays it out, with one package in two versions. */
async function handMadeMirror(): Promise<{ dir: string; tarball: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), "hypofix-mirror-"));
  const tar = pack();
  tar.entry({ name: "package/package.json" }, JSON.stringify({ name: "@acme/util", version: "1.1.0" }));
  tar.entry({ name: "package/index.js" }, "module.exports = 42;\n");
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  const tarball = gzipSync(Buffer.concat(chunks));
  for (const version of ["1.0.0", "1.1.0", "2.0.0-beta.1"]) {
    await mkdir(path.join(dir, "tarballs", "@acme", "util", "-"), { recursive: true });
    await writeFile(path.join(dir, "tarballs", "@acme", "util", "-", `util-${version}.tgz`), tarball);
    await mkdir(path.join(dir, "manifests", "@acme", "util"), { recursive: true });
    const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
    await writeFile(
      path.join(dir, "manifests", "@acme", "util", `${version}.json`),
      JSON.stringify({
        name: "@acme/util",
        version,
        dist: { integrity, tarball: `/@acme/util/-/util-${version}.tgz` },
      }),
    );
  }
  return { dir, tarball };
}

describe("startNpmMirror", () => {
  const mirrors: NpmMirror[] = [];
  afterAll(async () => {
    for (const m of mirrors) await m.close();
  });

  it("serves packuments whose tarball URLs point at the mirror, versions, tags and tarballs", async () => {
    const { dir, tarball } = await handMadeMirror();
    const mirror = await startNpmMirror({ dir });
    mirrors.push(mirror);
    const doc = (await (await fetch(`${mirror.url}@acme%2futil`)).json()) as {
      "dist-tags": Record<string, string>;
      versions: Record<string, { dist: { tarball: string } }>;
    };
    expect(doc["dist-tags"]).toEqual({ latest: "1.1.0" });
    expect(Object.keys(doc.versions).sort()).toEqual(["1.0.0", "1.1.0", "2.0.0-beta.1"]);
    const url = doc.versions["1.1.0"]!.dist.tarball;
    expect(url).toBe(`${mirror.url}@acme/util/-/util-1.1.0.tgz`);
    expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(tarball);
    const latest = (await (await fetch(`${mirror.url}@acme/util/latest`)).json()) as { version: string };
    expect(latest.version).toBe("1.1.0");
    expect(mirror.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it("answers 404 for what it does not hold, and never serves outside its folder", async () => {
    const { dir } = await handMadeMirror();
    await writeFile(path.join(dir, "secret.json"), "{}");
    const mirror = await startNpmMirror({ dir });
    mirrors.push(mirror);
    for (const p of [
      "left-pad",
      "@acme/util/3.0.0",
      "@acme/util/-/util-3.0.0.tgz",
      "..%2fsecret.json",
      "%2e%2e/secret.json",
    ]) {
      expect((await fetch(`${mirror.url}${p}`)).status, p).toBe(404);
    }
  });

  it("writes the public URL it is given into the documents", async () => {
    const { dir } = await handMadeMirror();
    const mirror = await startNpmMirror({ dir, publicUrl: "http://mirror.internal:4873/" });
    mirrors.push(mirror);
    const doc = (await (await fetch(`${mirror.url}@acme/util/1.0.0`)).json()) as {
      dist: { tarball: string };
    };
    expect(doc.dist.tarball).toBe("http://mirror.internal:4873/@acme/util/-/util-1.0.0.tgz");
  });

  it("lets npm resolve and install from packuments alone, on loopback", async () => {
    // No lockfile: npm resolves mocha's ranges against the provisioned mirror's packuments.
    const lock = fileURLToPath(new URL("../fixtures/js-mocha/package-lock.json", import.meta.url));
    await assertMirrorHolds([lock]);
    const mirror = await startNpmMirror();
    mirrors.push(mirror);
    const project = await mkdtemp(path.join(tmpdir(), "hypofix-mirror-npm-"));
    const manifest = JSON.parse(
      await readFile(path.join(path.dirname(lock), "package.json"), "utf8"),
    ) as object;
    await writeFile(path.join(project, "package.json"), JSON.stringify(manifest));
    // Neither this host's ~/.npmrc nor its global npmrc: only the mirror.
    const [user, global] = [path.join(project, "user.npmrc"), path.join(project, "global.npmrc")];
    await writeFile(user, "");
    await writeFile(global, "");
    const npm = (args: string[]) =>
      promisify(execFile)("npm", args, {
        cwd: project,
        env: {
          ...process.env,
          npm_config_userconfig: user,
          npm_config_globalconfig: global,
          npm_config_update_notifier: "false",
        },
      });
    await npm([
      "install",
      "--registry",
      mirror.url,
      "--cache",
      path.join(project, ".cache"),
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
    ]);
    const { stdout } = await npm(["exec", "--no-install", "--", "mocha", "--version"]);
    expect(stdout.trim()).toBe("11.8.0");
    expect(mirror.requests.some((r) => r.path === "/mocha" && r.status === 200)).toBe(true);
    expect(mirror.requests.filter((r) => r.status !== 200)).toEqual([]);
  });
});
