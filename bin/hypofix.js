#!/usr/bin/env node
// A source checkout (src/cli.ts beside this file) runs the TypeScript through tsx, so a fresh
// clone needs no build step and never runs a stale dist/; the published package, which ships
// only dist/, runs the compiled JavaScript.
import { existsSync } from "node:fs";
import { URL } from "node:url";

const source = new URL("../src/cli.ts", import.meta.url);
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else {
  await import(new URL("../dist/cli.js", import.meta.url).href);
}
