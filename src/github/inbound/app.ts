import type { ApplicationFunction, Context, Probot } from "probot";
import type { Enqueued } from "../../queue/queue.js";
import { reportCheckRun } from "../outbound/publish.js";
import { readRepoConfig } from "./repo-config.js";
import {
  canTrigger,
  parseCommand,
  triggerFromCheckRun,
  triggerFromWorkflowRun,
  type Trigger,
} from "./triggers.js";

export interface Enqueuer {
  enqueue(job: unknown): Promise<Enqueued>;
}

async function submit(
  context: Context,
  trigger: Trigger,
  queue: Enqueuer,
  onBadConfig?: (problem: string) => Promise<unknown>,
): Promise<void> {
  if ("ignored" in trigger) {
    context.log.debug({ event: context.name, why: trigger.ignored }, "ignored");
    return;
  }
  const lookup = await readRepoConfig(context);
  if ("problem" in lookup) {
    context.log.warn({ repo: trigger.job.repo, problem: lookup.problem }, "invalid repository configuration");
    const sha = trigger.job.headSha;
    await (onBadConfig || !sha
      ? onBadConfig?.(lookup.problem)
      : reportCheckRun(context.octokit, context.repo(), sha, {
          conclusion: "action_required",
          title: "Hypofix configuration is invalid",
          summary: lookup.problem,
        }));
    return;
  }
  const { id, duplicate } = await queue.enqueue(trigger.job);
  context.log.info({ jobId: id, duplicate, kind: trigger.job.kind, repo: trigger.job.repo }, "job queued");
}

/** Webhook handlers: decide, validate, enqueue. The work itself happens in the worker. */
export function registerHandlers(app: Probot, queue: Enqueuer, ownAppId?: number): void {
  app.on("check_run.completed", async (context) => {
    await submit(context, triggerFromCheckRun(context.payload, ownAppId), queue);
  });

  app.on("workflow_run.completed", async (context) => {
    await submit(context, triggerFromWorkflowRun(context.payload), queue);
  });

  app.on("issue_comment.created", async (context) => {
    const { comment, issue, installation } = context.payload;
    const command = parseCommand(comment.body);
    const user = comment.user;
    if (!command || !issue.pull_request || !installation || !user || user.type === "Bot") return;

    const { data: perm } = await context.octokit.rest.repos.getCollaboratorPermissionLevel(
      context.repo({ username: user.login }),
    );
    if (!canTrigger(perm.permission)) {
      await context.octokit.rest.issues.createComment(
        context.issue({
          body: `@${user.login} only users with write access can run \`/${command}\`.`,
        }),
      );
      return;
    }
    const { data: pr } = await context.octokit.rest.pulls.get(context.pullRequest());
    await context.octokit.rest.reactions.createForIssueComment(
      context.repo({ comment_id: comment.id, content: "eyes" as const }),
    );
    await submit(
      context,
      {
        job: {
          kind: command === "explain" ? "explain" : "ci-failure",
          trigger: "command",
          installationId: installation.id,
          repo: { owner: context.repo().owner, name: context.repo().repo },
          headSha: pr.head.sha,
          prNumber: issue.number,
          requestedBy: user.login,
        },
      },
      queue,
      (problem) => context.octokit.rest.issues.createComment(context.issue({ body: problem })),
    );
  });
}

/** The Probot app: wires webhook handlers to the queue, nothing else. */
export function hypofixApp(queue: Enqueuer, ownAppId?: number): ApplicationFunction {
  return (app) => {
    registerHandlers(app, queue, ownAppId);
  };
}
