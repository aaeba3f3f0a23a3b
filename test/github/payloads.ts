import { createHmac, randomUUID } from "node:crypto";
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

/** GitHub's signature of a delivery's `body` with the webhook `secret` (x-hub-signature-256). */
export function webhookSignature(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** The headers GitHub sends with a delivery of `event`: its id and the body's signature. */
export function deliveryHeaders(
  event: string,
  body: string,
  secret: string,
  delivery: string = randomUUID(),
): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-github-event": event,
    "x-github-delivery": delivery,
    "x-hub-signature-256": webhookSignature(body, secret),
  };
}
