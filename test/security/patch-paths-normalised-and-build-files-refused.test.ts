// Hostile case (issue 12, point 7): a patch that reaches CI or build files by spelling
// the path another way (`./.github/workflows/ci.yml`, `a/../.github/x`) or by naming a
// packaging file outside `.github/` (`setup.py`, `tox.ini`, a Dockerfile). The guard
// checks the normalised path, refuses those files and anything but `.py`, and is checked
// again at publish time on the path exactly as it would be committed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forbiddenPath, type PathRules } from "../../src/debug/guards.js";
import type { Checkout } from "../../src/outbound/checkout.js";
import { patchedFiles } from "../../src/outbound/patched-files.js";
import { BUGGY, FIXED, FixRepo, diffOf } from "../github/fix-repo.js";
import { pythonFiles } from "../../src/lang/python/index.js";

const everything: PathRules = { files: pythonFiles, sourcePaths: [], ignorePaths: [] };
const CI = "on: push\njobs: {}\n";

describe("patch paths are normalised and build files refused, also at publish time", () => {
  const repo = new FixRepo({
    "calc/ops.py": BUGGY,
    ".github/workflows/ci.yml": CI,
    "setup.py": "from setuptools import setup\n",
    "tox.ini": "[tox]\n",
    Dockerfile: "FROM python\n",
  });
  let checkout: Checkout;
  beforeAll(async () => {
    checkout = await repo.checkout(repo.head("main"));
  });
  afterAll(() => repo.dispose());

  it("the guard refuses CI files however the path is spelled", () => {
    for (const p of ["./.github/workflows/ci.yml", "a/../.github/x", "calc/../.github/workflows/ci.yml"])
      expect(forbiddenPath(p, everything), p).toMatch(/CI configuration/);
    for (const p of ["setup.py", "tox.ini", "Dockerfile", "requirements.txt", "Makefile", "pyproject.toml"])
      expect(forbiddenPath(p, everything), p).toMatch(/build, packaging or CI file/);
  });

  it("publishing refuses them too, and any path not in its plain form", async () => {
    const attempt = (patch: string, rules = everything) => patchedFiles(checkout, patch, rules);
    await expect(attempt(diffOf(".github/workflows/ci.yml", CI, "on: pull_request\n"))).rejects.toThrow(
      /CI configuration/,
    );
    await expect(attempt(diffOf("./.github/workflows/ci.yml", CI, "x\n"))).rejects.toThrow(
      /not a plain repository path/,
    );
    await expect(attempt(diffOf("calc/../setup.py", "", "x = 1\n"))).rejects.toThrow(
      /not a plain repository path/,
    );
    for (const [file, before] of [
      ["setup.py", "from setuptools import setup\n"],
      ["tox.ini", "[tox]\n"],
      ["Dockerfile", "FROM python\n"],
    ] as const)
      await expect(attempt(diffOf(file, before, `${before}# more\n`)), file).rejects.toThrow(
        /build, packaging or CI file/,
      );
    await expect(
      attempt(diffOf("calc/ops.py", BUGGY, FIXED), {
        files: pythonFiles,
        sourcePaths: ["src"],
        ignorePaths: [],
      }),
    ).rejects.toThrow(/outside the configured source paths/);
    // The other side: the same patch to a source file inside the source paths is published.
    expect(
      await attempt(diffOf("calc/ops.py", BUGGY, FIXED), {
        files: pythonFiles,
        sourcePaths: ["calc/"],
        ignorePaths: [],
      }),
    ).toEqual([{ path: "calc/ops.py", mode: "100644", content: FIXED }]);
  });
});
