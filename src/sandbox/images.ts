import type Docker from "dockerode";

/*
 * The sandbox base images, one per Python version. With HYPOFIX_SANDBOX_IMAGE=B
 * (default hypofix/sandbox-python:2), B itself is the default and B-py3.9,
 * B-py3.11, B-py3.13 are the versions (docker/build-sandbox-image-offline.sh
 * --python X, or docker/sandbox-python.Dockerfile with --build-arg PYTHON=X).
 * Each image says its version in the label org.hypofix.python.
 */

export const PYTHON_LABEL = "org.hypofix.python";
/** Minor versions whose images are looked for. */
export const PYTHON_VERSIONS = ["3.9", "3.10", "3.11", "3.12", "3.13", "3.14"] as const;

export interface BaseImage {
  tag: string;
  /** Image id (sha256:...), part of every environment's cache key. */
  id: string;
  /** Minor version from the label, when the image has one. */
  python?: string;
}

export const pythonImageTag = (base: string, version: string): string => `${base}-py${version}`;

export async function inspectImage(docker: Docker, tag: string): Promise<BaseImage | undefined> {
  try {
    const info = await docker.getImage(tag).inspect();
    const python = info.Config?.Labels?.[PYTHON_LABEL];
    return { tag, id: info.Id, ...(python ? { python } : {}) };
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw err;
  }
}

export interface BaseImages {
  /** The image named by HYPOFIX_SANDBOX_IMAGE, if it exists. */
  fallback?: BaseImage;
  /** Minor version → image, for every version image that exists (the default's own version included). */
  byVersion: Map<string, BaseImage>;
}

/** The base images present on the engine for `base`. */
export async function baseImages(docker: Docker, base: string): Promise<BaseImages> {
  const [fallback, ...versions] = await Promise.all([
    inspectImage(docker, base),
    ...PYTHON_VERSIONS.map((v) => inspectImage(docker, pythonImageTag(base, v))),
  ]);
  const byVersion = new Map<string, BaseImage>();
  PYTHON_VERSIONS.forEach((v, i) => {
    const image = versions[i];
    if (image) byVersion.set(v, { ...image, python: image.python ?? v });
  });
  if (fallback?.python && !byVersion.has(fallback.python)) byVersion.set(fallback.python, fallback);
  return { ...(fallback ? { fallback } : {}), byVersion };
}
