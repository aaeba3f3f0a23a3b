import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const PROMPTS_DIR = fileURLToPath(new URL("../../prompts/", import.meta.url));
const cache = new Map<string, string>();

/** Reads prompts/<name>.txt once. */
export function promptTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(`${PROMPTS_DIR}${name}.txt`, "utf8");
    cache.set(name, text);
  }
  return text;
}

/** Fills `{{placeholder}}`s; a placeholder without a value, or a value for no placeholder, is a bug. */
export function fillPrompt(template: string, values: Record<string, string>): string {
  const used = new Set<string>();
  const filled = template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`prompt placeholder {{${key}}} has no value`);
    used.add(key);
    return value;
  });
  const unused = Object.keys(values).filter((k) => !used.has(k));
  if (unused.length > 0) throw new Error(`prompt has no placeholder for ${unused.join(", ")}`);
  return filled;
}

export function renderPrompt(name: string, values: Record<string, string>): string {
  return fillPrompt(promptTemplate(name), values);
}
