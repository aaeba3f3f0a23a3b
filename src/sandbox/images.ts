import type Docker from "dockerode";

/*
 * The sandbox base images of one language, one per version of its toolchain. With the
 * family's base tag B (Python's: HYPOFIX_SANDBOX_IMAGE, default hypofix/sandbox-python:2),
 * B itself is the default and B<suffix><version> are the versions (Python: B-py3.11; built
 * by docker/build-sandbox-image-offline.sh --python X, or docker/sandbox-python.Dockerfile
 * with --build-arg PYTHON=X). Each image says its version in the family's label.
 */

/** How a language names and labels its base images: plain data from its Language. */
export interface ImageFamily {
  /** The image label that says the toolchain version of an image (Python: `org.hypofix.python`). */
  label: string;
  /** Versions whose images are looked for (Python: the minor versions 3.9 ... 3.14). */
  versions: readonly string[];
  /** Between the base tag and a version in a version image's tag (Python: `-py`). */
  tagSuffix: string;
}

export interface BaseImage {
  tag: string;
  /** Image id (sha256:...), part of every environment's cache key. */
  id: string;
  /** The toolchain version from the family's label, when the image has one. */
  version?: string;
}

/** The tag of one version's image: `base` + the family's suffix + `version`. */
export const versionImageTag = (family: ImageFamily, base: string, version: string): string =>
  `${base}${family.tagSuffix}${version}`;

export async function inspectImage(
  docker: Docker,
  tag: string,
  label?: string,
): Promise<BaseImage | undefined> {
  try {
    const info = await docker.getImage(tag).inspect();
    const version = label ? info.Config?.Labels?.[label] : undefined;
    return { tag, id: info.Id, ...(version ? { version } : {}) };
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw err;
  }
}

export interface BaseImages {
  /** The family's base tag itself, if it exists. */
  fallback?: BaseImage;
  /** Version → image, for every version image that exists (the default's own version included). */
  byVersion: Map<string, BaseImage>;
}

/** The base images of `family` present on the engine for the base tag `base`. */
export async function baseImages(docker: Docker, base: string, family: ImageFamily): Promise<BaseImages> {
  const [fallback, ...versions] = await Promise.all([
    inspectImage(docker, base, family.label),
    ...family.versions.map((v) => inspectImage(docker, versionImageTag(family, base, v), family.label)),
  ]);
  const byVersion = new Map<string, BaseImage>();
  family.versions.forEach((v, i) => {
    const image = versions[i];
    if (image) byVersion.set(v, { ...image, version: image.version ?? v });
  });
  if (fallback?.version && !byVersion.has(fallback.version)) byVersion.set(fallback.version, fallback);
  return { ...(fallback ? { fallback } : {}), byVersion };
}
