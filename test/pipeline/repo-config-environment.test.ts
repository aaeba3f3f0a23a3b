import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../src/repo-config.js";

describe(".github/hypofix.yml: python_version and working_directory", () => {
  it("accepts a quoted or unambiguous minor version and a folder of the repository", () => {
    expect(parseRepoConfig('python_version: "3.10"\nworking_directory: services/api\n')).toMatchObject({
      python_version: "3.10",
      working_directory: "services/api",
    });
    expect(parseRepoConfig("python_version: 3.13\n").python_version).toBe("3.13");
    expect(parseRepoConfig("reruns: 3\n").python_version).toBeUndefined();
  });

  it("rejects an unquoted 3.10 (YAML's number 3.1), other versions and paths out of the repository", () => {
    expect(() => parseRepoConfig("python_version: 3.10\n")).toThrow(
      /python_version: must be a Python minor version/,
    );
    expect(() => parseRepoConfig('python_version: "2.7"\n')).toThrow(/python_version/);
    expect(() => parseRepoConfig("working_directory: ../elsewhere\n")).toThrow(
      /working_directory: must be a path inside the repository/,
    );
    expect(() => parseRepoConfig("working_directory: /etc\n")).toThrow(/working_directory/);
  });
});
