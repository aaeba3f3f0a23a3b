import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkLayers } from "../../scripts/check-layers.js";

const scratch = mkdtempSync(join(tmpdir(), "hypofix-layers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const root = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("the import-direction check", () => {
  it("passes on Hypofix's own src/", () => {
    expect(checkLayers(join(import.meta.dirname, "../../src"))).toEqual([]);
  });

  it("fails on the imports that used to reach up a layer", () => {
    const src = tree("bad", {
      "pipeline/index.ts": "export const runFix = 1;\n",
      "debug/command.ts": 'import { runFix } from "../pipeline/index.js";\nexport const x = runFix;\n',
      "debug/setup.ts":
        'import type { FixOptions } from "../pipeline/index.js";\nexport type Y = FixOptions;\n',
      "queue/processor.ts": 'import { checkoutCommit } from "../outbound/checkout.js";\n',
      "outbound/checkout.ts": 'import { JobQueue } from "../queue/queue.js";\n',
      "queue/queue.ts": "export class JobQueue {}\n",
      "report/render.ts": 'import { code } from "../debug/templates.js";\n',
      "debug/templates.ts": "export const code = 1;\n",
      "misc/orphan.ts": "export {};\n",
    });
    const found = checkLayers(src).map((v) => `${v.file} -> ${v.imports || "(none)"}`);
    expect(found.sort()).toEqual(
      [
        "debug/command.ts -> ../pipeline/index.js",
        "debug/setup.ts -> ../pipeline/index.js",
        "outbound/checkout.ts -> ../queue/queue.js",
        // The same two imports make queue/ and outbound/ a folder-level cycle.
        "outbound/checkout.ts -> ../queue/queue.js",
        "queue/processor.ts -> ../outbound/checkout.js",
        "report/render.ts -> ../debug/templates.js",
        "misc/orphan.ts -> (none)",
      ].sort(),
    );
  });

  it("fails on a folder-level import cycle, the queue/ ↔ github/ one that used to be, at any depth", () => {
    const layersOnly = (src: string) =>
      checkLayers(src)
        .filter((v) => v.problem.includes("cycle"))
        .map((v) => `${v.file} -> ${v.imports}: ${v.problem}`);
    // Every import points down a layer here; only the folders make a cycle.
    const src = tree("cycle", {
      "github/inbound/app.ts": 'import "../../queue/job.js";\n',
      "queue/job.ts": "",
      "queue/green.ts": 'import "../github/outbound/repo-host.js";\n',
      "github/outbound/repo-host.ts": "",
      "lang/types.ts": 'import "./python/runtime.js";\n',
      "lang/python/runtime.ts": 'import "../types.js";\n',
    });
    expect(layersOnly(src).sort()).toEqual(
      [
        "github/inbound/app.ts -> ../../queue/job.js: folder-level import cycle between github/, queue/: github/ imports queue/",
        "queue/green.ts -> ../github/outbound/repo-host.js: folder-level import cycle between github/, queue/: queue/ imports github/",
        "lang/types.ts -> ./python/runtime.js: folder-level import cycle between lang/python/, lang/types.ts: lang/types.ts imports lang/python/",
        "lang/python/runtime.ts -> ../types.js: folder-level import cycle between lang/python/, lang/types.ts: lang/python/ imports lang/types.ts",
      ].sort(),
    );
    // The same imports with the cycles cut (inbound/ and outbound/ apart; the port below its languages) pass.
    const cut = tree("cycle-cut", {
      "inbound/app.ts": 'import "../queue/job.js";\n',
      "queue/job.ts": "",
      "queue/green.ts": 'import "../outbound/repo-host.js";\n',
      "outbound/repo-host.ts": "",
      "lang/registry.ts": 'import "./python/runtime.js";\n',
      "lang/python/runtime.ts": 'import "../types.js";\n',
      "lang/types.ts": "",
      // Two modules of one folder that need each other: a module's business, not a layer's.
      "queue/a.ts": 'import "./b.js";\n',
      "queue/b.ts": 'import "./a.js";\n',
    });
    expect(layersOnly(cut)).toEqual([]);
  });

  it("lets a layer import itself and anything below", () => {
    const src = tree("good", {
      "compose.ts": 'import "./pipeline/index.js";\nimport "./queue/a.js";\n',
      "pipeline/index.ts": 'import "./b.js";\nimport "../debug/c.js";\nimport "../report/d.js";\n',
      "pipeline/b.ts": 'import "../result.js";\n',
      "debug/c.ts": 'import "../localize/e.js";\nimport "../lang/python/f.js";\n',
      "localize/e.ts": 'import "../llm/g.js";\n',
      "lang/python/f.ts": 'import "../../sandbox/h.js";\n',
      "queue/a.ts": 'import type { X } from "../outbound/i.js";\nexport type Y = X;\n',
      "outbound/i.ts": "export type X = number;\n",
      "llm/g.ts": "",
      "sandbox/h.ts": "",
      "report/d.ts": 'import "../text.js";\n',
      "result.ts": "",
      "text.ts": "",
    });
    expect(checkLayers(src)).toEqual([]);
  });
});
