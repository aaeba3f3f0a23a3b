import { mention, text } from "./inert.js";

/*
 * What a job says on GitHub besides its report: the check run's title and
 * summary while it works and when it ends, and the replies to a `/fix` or
 * `/explain` that is not run. Every reason is untrusted text made inert here.
 */

export interface PhaseNote {
  phase: string;
  /** Plain text (code as code spans). */
  line: string;
}

export interface CheckText {
  title: string;
  summary: string;
}

function phaseList(notes: PhaseNote[]): string {
  return notes.map((n) => `- **${text(n.phase, { max: 40 })}**: ${text(n.line)}`).join("\n");
}

/** The running check run: the phases done so far, newest last. */
export function checkRunProgress(notes: PhaseNote[]): CheckText {
  const last = notes.at(-1);
  return {
    title: last ? `Working: ${last.phase} done` : "Working: fetching the commit",
    summary: notes.length > 0 ? `Phases done so far:\n\n${phaseList(notes)}` : "The job has started.",
  };
}

/** A link Hypofix made (its pull request, its comment): shown live, unlike untrusted text. */
export interface OwnLink {
  label: string;
  url: string;
}

function ownLink({ label, url }: OwnLink): string {
  if (!/^https?:\/\/[^\s()<>]+$/.test(url)) return text(`${label}: ${url}`);
  return `[${/^[\w #.-]{1,60}$/.test(label) ? label : text(label, { max: 60 })}](${url})`;
}

/** A concluded check run: a one-line reason first (and a link), then the phases, then (optionally) the full report. */
export function checkRunEnd(
  title: string,
  reason: string,
  notes: PhaseNote[],
  extra: { report?: string; link?: OwnLink } = {},
): CheckText {
  const { report, link } = extra;
  const parts = [link ? `${text(reason)} ${ownLink(link)}` : text(reason)];
  if (notes.length > 0) parts.push(`Phases:\n\n${phaseList(notes)}`);
  if (report) parts.push(report);
  return { title, summary: parts.join("\n\n") };
}

/**
 * The one reply to a command from someone without write access. The same words
 * whichever command was refused, so a later one finds this reply unchanged.
 */
export function refusalReply(login: string): string {
  return `${mention(login)} only users with write access can run \`/fix\` or \`/explain\`; later commands from you on this pull request get no reply.`;
}

/** The reply to a command whose pull request got a new head after the comment was written. */
export function staleHeadReply(login: string, command: string, headSha: string): string {
  return `${mention(login)} the pull request's head moved to ${text(`\`${headSha.slice(0, 12)}\``)} after your comment, so ${text(`\`/${command}\``)} was not run on code you may not have seen. Comment ${text(`\`/${command}\``)} again to run it on the new head.`;
}

/** The reply to a command when the repository's configuration is invalid. */
export function configProblemReply(problem: string): string {
  return `Hypofix did not run: ${text(problem)}`;
}
