import type { ApplicationFunction, Context, Probot } from "probot";
import type { HypofixJob } from "../queue/job.js";
import type { Enqueued } from "../queue/queue.js";
import {
  headMovedByPush,
  headMovedBySynchronize,
  isStale,
  findCommand,
  triggerFromCheckRun,
  triggerFromReview,
  triggerFromWorkflowRun,
  type HeadMoved,
  type Trigger,
} from "./triggers.js";

/** The queue as the webhook path sees it: Redis only, never GitHub. */
export interface Enqueuer {
  enqueue(job: unknown): Promise<Enqueued>;
  /** Cancels queued and running jobs the predicate calls stale; returns their ids. */
  cancel(stale: (job: HypofixJob) => boolean, reason: string): Promise<string[]>;
}

async function submit(context: Context, trigger: Trigger, queue: Enqueuer): Promise<void> {
  if ("ignored" in trigger) {
    context.log.debug({ event: context.name, why: trigger.ignored }, "ignored");
    return;
  }
  const { id, duplicate } = await queue.enqueue({ ...trigger.job, deliveryId: context.id });
  context.log.info(
    { jobId: id, duplicate, kind: trigger.job.kind, repo: trigger.job.repo, delivery: context.id },
    duplicate ? "duplicate delivery; job already queued" : "job queued",
  );
}

async function cancelStale(context: Context, moved: HeadMoved | undefined, queue: Enqueuer): Promise<void> {
  if (!moved) return;
  const cancelled = await queue.cancel((job) => isStale(job, moved), "its head moved on");
  if (cancelled.length > 0) context.log.info({ cancelled, moved }, "cancelled jobs for a stale head");
}

/**
 * Webhook handlers: verify (Probot), validate, enqueue. No GitHub API call happens
 * before the delivery is answered, so a delivery never fails on API or throttling
 * trouble: config, permissions and pull request heads are the worker's business.
 */
export function registerHandlers(app: Probot, queue: Enqueuer, ownAppId?: number): void {
  app.on("check_run.completed", async (context) => {
    await submit(context, triggerFromCheckRun(context.payload, ownAppId), queue);
  });

  app.on("workflow_run.completed", async (context) => {
    await submit(context, triggerFromWorkflowRun(context.payload), queue);
  });

  app.on("push", async (context) => {
    await cancelStale(context, headMovedByPush(context.payload), queue);
  });

  app.on("pull_request.synchronize", async (context) => {
    await cancelStale(context, headMovedBySynchronize(context.payload), queue);
  });

  app.on("pull_request_review.submitted", async (context) => {
    await submit(context, triggerFromReview(context.payload), queue);
  });

  app.on("issue_comment.created", async (context) => {
    const { comment, issue, installation } = context.payload;
    const user = comment.user;
    if (!issue.pull_request || !installation || !user || user.type === "Bot") return;
    const found = findCommand(comment.body);
    if (!found) return;
    const { command } = found;
    // Who may run it, and which head the commenter saw, are checked by the job.
    await submit(
      context,
      {
        job: {
          kind: command === "fix" ? "ci-failure" : command,
          trigger: "command",
          installationId: installation.id,
          repo: { owner: context.repo().owner, name: context.repo().repo },
          prNumber: issue.number,
          requestedBy: user.login,
          commentId: comment.id,
          commentedAt: comment.created_at,
          ...(found.text ? { instructions: found.text } : {}),
        },
      },
      queue,
    );
  });
}

/** The Probot app: wires webhook handlers to the queue, nothing else. */
export function hypofixApp(queue: Enqueuer, ownAppId?: number): ApplicationFunction {
  return (app) => {
    registerHandlers(app, queue, ownAppId);
  };
}
