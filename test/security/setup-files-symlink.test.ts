import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { python } from "../../src/lang/python/index.js";
import { dependencyFiles } from "../../src/pipeline/environment.js";

// Hostile case: a repository whose dependency files (read on the host to pick the setup,
// the Python version and the cache key) are symbolic links to host files, or whose
// working_directory goes through one. The host never follows them.
describe("dependency files read on the host", () => {
  it("reads regular files only: a requirements.txt linked to a host file is ignored", async () => {
    const repo = await mkdtemp(path.join(tmpdir(), "hypofix-hostile-"));
    const secret = path.join(await mkdtemp(path.join(tmpdir(), "hypofix-host-")), "secret.txt");
    await writeFile(secret, "host secret\n");
    await symlink(secret, path.join(repo, "requirements.txt"));
    await symlink(secret, path.join(repo, "pyproject.toml"));
    await writeFile(path.join(repo, "requirements-dev.txt"), "pytest-mock\n");
    const files = await dependencyFiles(repo, "", python.environment.dependencyFile);
    expect([...files.keys()]).toEqual(["requirements-dev.txt"]);
    expect([...files.values()].join("")).not.toContain("host secret");
  });

  it("refuses a working_directory that is a link out of the repository", async () => {
    const repo = await mkdtemp(path.join(tmpdir(), "hypofix-hostile-"));
    const outside = await mkdtemp(path.join(tmpdir(), "hypofix-host-"));
    await writeFile(path.join(outside, "requirements.txt"), "host file\n");
    await mkdir(path.join(repo, "services"));
    await symlink(outside, path.join(repo, "services", "api"));
    await expect(
      dependencyFiles(repo, "services/api", python.environment.dependencyFile),
    ).rejects.toMatchObject({
      name: "UserError",
      message: "working_directory services/api is not a folder of the repository",
    });
    await mkdir(path.join(repo, "services", "web"));
    await writeFile(path.join(repo, "services", "web", "requirements.txt"), "flask\n");
    expect(await dependencyFiles(repo, "services/web", python.environment.dependencyFile)).toEqual(
      new Map([["requirements.txt", "flask\n"]]),
    );
  });
});
