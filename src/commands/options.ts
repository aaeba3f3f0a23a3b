/** Commander's parser for a repeatable option (`--test a --test b`): one value each, never swallowing an argument. */
export function repeatable(value: string, previous: string[]): string[] {
  return [...previous, value];
}
