import { parse as parseYaml } from "yaml";

/*
 * Reading a project's JSON and YAML files (package.json, lockfiles, workflows) as
 * untrusted data: shapes are checked where a value is used, a broken file is none.
 */

/** The value as an object, when it is one (not an array, not null). */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A non-empty string, else undefined. */
export const str = (value: unknown): string | undefined =>
  typeof value === "string" && value ? value : undefined;

/**
 * A JSON or YAML file's top-level object; undefined when absent or broken (a broken
 * package.json is the package manager's error to report, in the setup's log).
 */
export function jsonRecord(text: string | undefined): Record<string, unknown> | undefined {
  return parsed(text, JSON.parse);
}

export function yamlRecord(text: string | undefined): Record<string, unknown> | undefined {
  return parsed(text, parseYaml);
}

function parsed(
  text: string | undefined,
  parse: (text: string) => unknown,
): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    return record(parse(text));
  } catch {
    return undefined;
  }
}
