import type Docker from "dockerode";
import { DEFAULT_NODE_IMAGE } from "../../config.js";
import type { BaseImage } from "../../sandbox/images.js";

/*
 * The Node.js sandbox images (docker/build-sandbox-node-offline.sh, or
 * docker/sandbox-node.Dockerfile): "<prefix>-node<major>", each labelled with its full
 * Node version. docker/sandbox-node.versions lists the ones provisioning builds.
 */

/** The prefix without HYPOFIX_NODE_IMAGE (the configured one is `Language.environment.imageBase`). */
export const NODE_IMAGE_PREFIX = DEFAULT_NODE_IMAGE;
export const NODE_LABEL = "org.hypofix.node";

export const nodeImageTag = (prefix: string, major: string | number): string => `${prefix}-node${major}`;

/**
 * The Node images present for `prefix`: full version (from the label) → image. An
 * image of the family without the label is not one of ours and is left out.
 */
export async function nodeImages(
  docker: Docker,
  prefix: string = NODE_IMAGE_PREFIX,
): Promise<Map<string, BaseImage>> {
  const listed = await docker.listImages({
    filters: { label: [NODE_LABEL], reference: [`${prefix}-node*`] },
  });
  const found = new Map<string, BaseImage>();
  for (const image of listed) {
    const version = image.Labels?.[NODE_LABEL];
    const tag = (image.RepoTags ?? []).find((t) => t.startsWith(`${prefix}-node`));
    if (version && tag) found.set(version, { tag, id: image.Id });
  }
  return found;
}
