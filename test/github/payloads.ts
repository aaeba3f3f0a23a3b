import examples from "@octokit/webhooks-examples";

/** A real payload from @octokit/webhooks-examples, deep-copied so a test may adjust it. */
export function examplePayload<T = Record<string, unknown>>(
  event: string,
  pick: (payload: Record<string, unknown>) => boolean,
): T {
  const group = (examples as unknown as { name: string; examples: Record<string, unknown>[] }[]).find(
    (e) => e.name === event,
  );
  const found = group?.examples.find(pick);
  if (!found) throw new Error(`no ${event} example matches`);
  return structuredClone(found) as T;
}
