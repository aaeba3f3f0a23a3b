import type { ApplicationFunction } from "probot";
import { registerHandlers, type Enqueuer } from "./github/handlers.js";

/** The Probot app: wires webhook handlers to the queue, nothing else. */
export function hypofixApp(queue: Enqueuer, ownAppId?: number): ApplicationFunction {
  return (app) => {
    registerHandlers(app, queue, ownAppId);
  };
}
