// Hostile case (issue 12, point 2, local sandbox): repository symlinks that lead out of
// the copy must never make Hypofix read or write a host file, on copy-in, readFile,
// writeFile, snapshot or restore.
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";
import { hostileRepo } from "./hostile-repo.js";

const outside = mkdtempSync(path.join(tmpdir(), "hypofix-outside-"));
writeFileSync(path.join(outside, "secret.env"), "TOKEN=host-secret\n");
const repo = hostileRepo({});
symlinkSync(path.join(outside, "secret.env"), path.join(repo, "settings.py"));
// Relative, climbing out of the copy wherever it is.
symlinkSync(path.relative(repo, path.join(outside, "secret.env")), path.join(repo, "relative.py"));
symlinkSync(outside, path.join(repo, "outside_dir"));
symlinkSync(path.join(outside, "created.py"), path.join(repo, "dangling.py"));
symlinkSync("calc.py", path.join(repo, "alias.py"));

const outsideListing = () => readdirSync(outside).sort();
const secret = () => readFileSync(path.join(outside, "secret.env"), "utf8");

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox("local", testOptions(repo));
});
afterAll(() => sb?.dispose());

it("copies the repository's links in as links, not as what they point at", () => {
  for (const link of ["settings.py", "relative.py", "outside_dir", "dangling.py", "alias.py"])
    expect(lstatSync(path.join(sb.workdir, link)).isSymbolicLink(), link).toBe(true);
  expect(outsideListing()).toEqual(["secret.env"]);
});

it("never reads a host file through a link, but reads links that stay inside", async () => {
  for (const p of ["settings.py", "relative.py", "outside_dir/secret.env", "../../../etc/hostname"])
    await expect(sb.readFile(p), p).rejects.toThrow(/refused/);
  expect(await sb.readFile("alias.py")).toBe(await sb.readFile("calc.py"));
});

it("never writes a host file through a link", async () => {
  for (const p of [
    "settings.py",
    "relative.py",
    "outside_dir/secret.env",
    "outside_dir/new.py",
    "dangling.py",
    // A link that stays inside is not written through either: the write would land on calc.py.
    "alias.py",
  ])
    await expect(sb.writeFile(p, "pwned = True\n"), p).rejects.toThrow(/refused/);
  expect(secret()).toBe("TOKEN=host-secret\n");
  expect(await sb.readFile("calc.py")).toBe("def add(a, b):\n    return a - b\n");
  expect(outsideListing()).toEqual(["secret.env"]);
  // The other side: a regular file in the copy is written.
  await sb.writeFile("calc.py", "def add(a, b):\n    return a + b\n");
  expect(await sb.readFile("calc.py")).toBe("def add(a, b):\n    return a + b\n");
});

it("snapshots and restores links as links, leaving their targets alone", async () => {
  const snap = await sb.snapshot();
  await sb.writeFile("extra.py", "x = 1\n");
  await sb.restore(snap);
  expect(existsSync(path.join(sb.workdir, "extra.py"))).toBe(false);
  expect(lstatSync(path.join(sb.workdir, "outside_dir")).isSymbolicLink()).toBe(true);
  expect(outsideListing()).toEqual(["secret.env"]);
  expect(secret()).toBe("TOKEN=host-secret\n");
  await expect(sb.readFile("settings.py")).rejects.toThrow(/refused/);
});
