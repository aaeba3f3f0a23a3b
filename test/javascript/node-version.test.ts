import { describe, expect, it } from "vitest";
import {
  chooseNode,
  matchNode,
  nodeFromCiLog,
  setupNodeVersions,
  toolVersionsNode,
  versionFileSpec,
} from "../../src/lang/javascript/node-version.js";

const AVAILABLE = ["18.20.8", "20.20.2", "22.23.5"];
const pkg = (fields: object) => JSON.stringify({ name: "p", version: "1.0.0", ...fields });

describe("matchNode", () => {
  it.each([
    [">=18", "22.23.5", true],
    ["^18 || ^20", "20.20.2", true],
    ["18.x", "18.20.8", true],
    ["v20", "20.20.2", true],
    ["lts/*", "22.23.5", true],
    ["lts/hydrogen", "18.20.8", true],
    ["node", "22.23.5", true],
    // A pin to a release we have no image of gets the newest of its major, not the next major.
    ["18.17.0", "18.20.8", false],
    ["~20.10.0", "20.20.2", false],
    // No image of the major: the next newer one, or the newest when all are older.
    ["16", "18.20.8", false],
    ["19", "20.20.2", false],
    [">=24", "22.23.5", false],
  ])("%s gets %s (satisfied: %s)", (spec, version, exact) => {
    expect(matchNode(spec, AVAILABLE)).toEqual({ version, exact });
  });

  it("passes over what is no version", () => {
    expect(matchNode("lts/-1", AVAILABLE)).toBeUndefined();
    expect(matchNode("lts/nonesuch", AVAILABLE)).toBeUndefined();
    expect(matchNode("eighteen", AVAILABLE)).toBeUndefined();
    expect(matchNode("20", [])).toBeUndefined();
  });
});

describe("chooseNode", () => {
  it("takes engines.node as a range: the newest image that satisfies it", () => {
    expect(chooseNode({ available: AVAILABLE, packageJson: pkg({ engines: { node: ">=18" } }) })).toEqual({
      version: "22.23.5",
      reason: "engines",
    });
    expect(chooseNode({ available: AVAILABLE, packageJson: pkg({ engines: { node: ">=16 <21" } }) })).toEqual(
      { version: "20.20.2", reason: "engines" },
    );
  });

  it("says what was asked when no image satisfies it", () => {
    expect(chooseNode({ available: AVAILABLE, packageJson: pkg({ engines: { node: "^16.14" } }) })).toEqual({
      version: "18.20.8",
      reason: "engines",
      asked: "^16.14",
    });
  });

  it("defaults to Node 20, and without one to the newest image", () => {
    expect(chooseNode({ available: AVAILABLE })).toEqual({ version: "20.20.2", reason: "default" });
    expect(chooseNode({ available: ["18.20.8", "22.23.5"] })).toEqual({
      version: "22.23.5",
      reason: "default",
      asked: "20",
    });
    expect(chooseNode({ available: [] })).toBeUndefined();
  });

  it("prefers a pin to a range, and the failed job's version to both", () => {
    const files = {
      available: AVAILABLE,
      packageJson: pkg({ engines: { node: ">=18" } }),
      nvmrc: "v18.20.4\n",
    };
    expect(chooseNode(files)).toEqual({ version: "18.20.8", reason: ".nvmrc", asked: "v18.20.4" });
    const ciLog =
      "2024-05-01T10:00:00.0000000Z ##[group]Environment details\n2024-05-01T10:00:00.0000000Z node: v20.11.1\n";
    expect(chooseNode({ ...files, ciLog })).toEqual({
      version: "20.20.2",
      reason: "CI log",
      asked: "20.11.1",
    });
    expect(chooseNode({ ...files, ciLog, configured: "22" })).toEqual({
      version: "22.23.5",
      reason: "node_version",
    });
  });

  it("reads .node-version, .tool-versions and Volta's pin, in that order after .nvmrc", () => {
    expect(
      chooseNode({ available: AVAILABLE, nodeVersionFile: "22\n", toolVersions: "nodejs 18.20.8\n" }),
    ).toEqual({
      version: "22.23.5",
      reason: ".node-version",
    });
    expect(chooseNode({ available: AVAILABLE, toolVersions: "python 3.12.1\nnodejs 18.20.8\n" })).toEqual({
      version: "18.20.8",
      reason: ".tool-versions",
    });
    expect(chooseNode({ available: AVAILABLE, packageJson: pkg({ volta: { node: "18.20.8" } }) })).toEqual({
      version: "18.20.8",
      reason: "volta",
    });
  });

  it("uses the workflows' setup-node versions before engines.node, the newest of a matrix", () => {
    const workflow = [
      "jobs:",
      "  test:",
      "    strategy:",
      "      matrix:",
      "        node: [18.x, 20.x]",
      "    steps:",
      "      - uses: actions/setup-node@v4",
      "        with:",
      "          node-version: ${{ matrix.node }}",
    ].join("\n");
    expect(
      chooseNode({
        available: AVAILABLE,
        workflows: [workflow],
        packageJson: pkg({ engines: { node: ">=18" } }),
      }),
    ).toEqual({ version: "20.20.2", reason: "workflow" });
  });

  it("passes over a pin that is no version and a broken package.json", () => {
    expect(
      chooseNode({ available: AVAILABLE, nvmrc: "lts/-1\n", packageJson: pkg({ engines: { node: "18" } }) }),
    ).toEqual({ version: "18.20.8", reason: "engines" });
    expect(chooseNode({ available: AVAILABLE, packageJson: "{ not json" })).toEqual({
      version: "20.20.2",
      reason: "default",
    });
  });
});

describe("version files", () => {
  it("takes the first line that is not a comment", () => {
    expect(versionFileSpec("# the team's Node\n\n  lts/iron  \n")).toBe("lts/iron");
    expect(versionFileSpec("\n# nothing\n")).toBeUndefined();
    expect(versionFileSpec(undefined)).toBeUndefined();
  });

  it("finds the nodejs line of .tool-versions", () => {
    expect(toolVersionsNode("ruby 3.3.0\nnodejs 20.11.1 18.19.0\n")).toBe("20.11.1");
    expect(toolVersionsNode("ruby 3.3.0\n")).toBeUndefined();
  });
});

describe("nodeFromCiLog", () => {
  it("reads setup-node's environment details, tool cache, download and input, in that order", () => {
    const log = [
      "2024-05-01T10:00:00.0000000Z ##[group]Run actions/setup-node@v4",
      "2024-05-01T10:00:00.0000000Z with:",
      "2024-05-01T10:00:00.0000000Z   node-version: 18.x",
      "2024-05-01T10:00:00.0000000Z ##[endgroup]",
      "2024-05-01T10:00:01.0000000Z Found in cache @ /opt/hostedtoolcache/node/18.20.3/x64",
      "2024-05-01T10:00:01.0000000Z ##[group]Environment details",
      "2024-05-01T10:00:01.0000000Z node: v18.20.4",
      "2024-05-01T10:00:01.0000000Z npm: 10.7.0",
    ];
    expect(nodeFromCiLog(log.join("\n"))).toBe("18.20.4");
    expect(nodeFromCiLog(log.slice(0, 5).join("\n"))).toBe("18.20.3");
    expect(nodeFromCiLog("Acquiring 22.4.1 - x64 from https://github.com/actions/node-versions\n")).toBe(
      "22.4.1",
    );
    expect(nodeFromCiLog(log.slice(0, 4).join("\n"))).toBe("18.x");
  });

  it("finds nothing in a log without setup-node", () => {
    expect(nodeFromCiLog("npm test\n> jest\nFAIL src/a.test.js\n")).toBeUndefined();
    expect(nodeFromCiLog(undefined)).toBeUndefined();
  });
});

describe("setupNodeVersions", () => {
  it("expands the matrix, its include entries and env, and skips other actions", () => {
    const workflow = [
      "env:",
      "  NODE: '22'",
      "jobs:",
      "  test:",
      "    strategy:",
      "      matrix:",
      "        node-version: [18, 20]",
      "        include:",
      "          - node-version: 21",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "      - uses: actions/setup-node@v4",
      "        with:",
      "          node-version: ${{ matrix.node-version }}",
      "  lint:",
      "    steps:",
      "      - uses: actions/setup-node@v3",
      "        with:",
      "          node-version: ${{ env.NODE }}",
      "      - uses: actions/setup-python@v5",
      "        with:",
      "          python-version: '3.12'",
    ].join("\n");
    expect(setupNodeVersions(workflow)).toEqual(["18", "20", "21", "22"]);
  });

  it("gives none for a setup-node without node-version, an unknown expression or broken YAML", () => {
    const noInput =
      "jobs:\n  t:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version-file: .nvmrc\n";
    expect(setupNodeVersions(noInput)).toEqual([]);
    const secret =
      "jobs:\n  t:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${{ inputs.node }}\n";
    expect(setupNodeVersions(secret)).toEqual([]);
    expect(setupNodeVersions("jobs: [\n")).toEqual([]);
  });
});
