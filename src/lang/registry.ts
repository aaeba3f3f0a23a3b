import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { UserError } from "../errors.js";
import { javascript } from "./javascript/language.js";
import { python } from "./python/index.js";
import type { CiLogFacts, Language, RepoProbe } from "./types.js";

export type * from "./types.js";

/*
 * The languages Hypofix repairs, keyed by id (SWE-bench's dispatch tables, one entry per
 * language). A repository's language is the `language:` of its .github/hypofix.yml, else
 * the one whose `detect` scores its file names highest; the default language (the first
 * registered, Python) when none scores above 0.
 */

const registered: Language[] = [python, javascript];

/**
 * Adds a language (a test's toy language, or a plug-in); its id must be new. Returns a
 * function that removes it again.
 */
export function registerLanguage(language: Language): () => void {
  if (languageById(language.id)) throw new Error(`a language ${language.id} is registered already`);
  registered.push(language);
  return () => {
    const at = registered.indexOf(language);
    if (at >= 0) registered.splice(at, 1);
  };
}

/** Every registered language, the default first. */
export function languages(): readonly Language[] {
  return registered;
}

/** The default language: the one a repository gets when nothing says otherwise. */
export function defaultLanguage(): Language {
  return registered[0]!;
}

export function languageById(id: string): Language | undefined {
  return registered.find((l) => l.id === id);
}

/** The language whose `detect` scores `probe` highest; the default on a tie at 0. */
export function detectFromNames(probe: RepoProbe): Language {
  let best = defaultLanguage();
  let score = 0;
  for (const language of registered) {
    const s = language.detect(probe);
    if (s > score) [best, score] = [language, s];
  }
  return best;
}

/**
 * The names directly in a folder of the checkout, without following a link (the repository
 * is untrusted); none when it is not a real folder.
 */
async function namesIn(dir: string): Promise<string[]> {
  const info = await lstat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  return (await readdir(dir)).sort();
}

/**
 * The repository's language: `configured` (its `language:` setting) when given, else
 * detected from the names in its root and working directory.
 */
export async function resolveLanguage(options: {
  repoDir: string;
  configured?: string;
  workingDirectory?: string;
}): Promise<Language> {
  if (options.configured) {
    const language = languageById(options.configured);
    if (!language) throw new UserError(`unknown language ${options.configured}`, `use one of ${ids()}`);
    return language;
  }
  const root = path.resolve(options.repoDir);
  const names = await namesIn(root);
  let dir = root;
  // The working directory's folders, one by one, never through a link.
  for (const part of (options.workingDirectory ?? "").split("/").filter((p) => p && p !== ".")) {
    dir = path.join(dir, part);
    if (!(await lstat(dir).catch(() => undefined))?.isDirectory()) break;
  }
  if (dir !== root) names.push(...(await namesIn(dir)));
  return detectFromNames({ names });
}

const ids = () => registered.map((l) => l.id).join(", ");

/**
 * What a CI log says about the failing tests: read by `language` when the repository's is
 * known, else by the first registered language (the default first) that finds a failing
 * test in it, else the default's reading.
 */
export function ciLogFacts(log: string, language?: Language): CiLogFacts {
  if (language) return language.parseCiLog(log);
  const readings = registered.map((l) => l.parseCiLog(log));
  return readings.find((r) => r.failingTests.length > 0) ?? readings[0]!;
}

/**
 * The test selection of a configured `test_command`, by the configured language, else by
 * the first language whose runner the command runs; the error is the configured (else the
 * default) language's when none accepts it.
 */
export function testSelectionOf(argv: string[], configured?: string): string[] {
  const chosen = configured ? languageById(configured) : undefined;
  if (chosen) return chosen.testSelection(argv);
  let first: unknown;
  for (const language of registered) {
    try {
      return language.testSelection(argv);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      first ??= err;
    }
  }
  throw first;
}

/** The keys the registered languages add to .github/hypofix.yml, with their schemas. */
export function languageConfigKeys(): Record<string, z.ZodType> {
  return Object.assign({}, ...registered.map((l) => l.configKeys)) as Record<string, z.ZodType>;
}
