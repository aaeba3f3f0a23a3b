// Hostile case (issue 12, point 2): a repository whose source files are links to host
// files (`settings.py -> <host secret>`, `zero.py -> /dev/zero`), a linked folder and a
// submodule. Publishing reads patched files from git objects, so none is ever read on
// the host, and a patch to any of them is refused; regular files keep their mode.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Checkout } from "../../src/outbound/checkout.js";
import { patchedFiles } from "../../src/outbound/patched-files.js";
import { BUGGY, FIXED, FixRepo, diffOf } from "../github/fix-repo.js";
import { git } from "../helpers/git.js";
import { pythonFiles } from "../../src/lang/python/index.js";

const SECRET = "GITHUB_TOKEN=ghs_host_secret\n";
const everything = { files: pythonFiles, sourcePaths: [], ignorePaths: [] };

describe("patched files come from git objects, never through repository links", () => {
  const outside = mkdtempSync(join(tmpdir(), "hypofix-host-"));
  writeFileSync(join(outside, "secret.env"), SECRET);
  writeFileSync(join(outside, "lib.py"), SECRET);
  const repo = new FixRepo({ "calc/ops.py": BUGGY, "tool.py": "print(1 - 1)\n" });
  let checkout: Checkout;

  beforeAll(async () => {
    symlinkSync(join(outside, "secret.env"), join(repo.origin, "settings.py"));
    symlinkSync("/dev/zero", join(repo.origin, "zero.py"));
    symlinkSync(outside, join(repo.origin, "linked"));
    repo.executable("tool.py");
    // A submodule entry (gitlink) named like a module.
    const some = git(repo.origin, "rev-parse", "HEAD");
    git(repo.origin, "update-index", "--add", "--cacheinfo", `160000,${some},vendored.py`);
    git(repo.origin, "commit", "--quiet", "-m", "links and a submodule");
    checkout = await repo.checkout(repo.head("main"));
  });
  afterAll(async () => {
    await repo.dispose();
    rmSync(outside, { recursive: true, force: true });
  });

  const attempt = (patch: string) => patchedFiles(checkout, patch, everything);

  it("refuses a patch to a file that links to a host file, without reading it", async () => {
    // The patch's old side is the host file's text: reading through the link would make it apply.
    const err = await attempt(diffOf("settings.py", SECRET, "GITHUB_TOKEN=x\n")).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/settings\.py is a symbolic link in the commit/);
    expect((err as Error).message).not.toContain("ghs_host_secret");
  });

  it("refuses a patch to a link to /dev/zero at once (reading it would never end)", async () => {
    await expect(attempt(diffOf("zero.py", "", "x = 1\n"))).rejects.toThrow(/zero\.py is a symbolic link/);
  });

  it("refuses files reached through a linked folder, existing or new", async () => {
    await expect(attempt(diffOf("linked/lib.py", SECRET, "x = 1\n"))).rejects.toThrow(
      /not a file in the commit/,
    );
    const created = "--- /dev/null\n+++ b/linked/new.py\n@@ -0,0 +1 @@\n+x = 1\n";
    await expect(attempt(created)).rejects.toThrow(/through linked, which is not a folder/);
  });

  it("refuses a patch to a submodule", async () => {
    await expect(attempt(diffOf("vendored.py", "", "x = 1\n"))).rejects.toThrow(
      /vendored\.py is a submodule/,
    );
  });

  it("patches regular files from their blobs and keeps their modes", async () => {
    const files = await attempt(
      diffOf("calc/ops.py", BUGGY, FIXED) + diffOf("tool.py", "print(1 - 1)\n", "print(1 + 1)\n"),
    );
    expect(files).toEqual([
      { path: "calc/ops.py", mode: "100644", content: FIXED },
      { path: "tool.py", mode: "100755", content: "print(1 + 1)\n" },
    ]);
  });
});
