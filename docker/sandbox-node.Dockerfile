# The Node.js sandbox images for machines that can pull from a registry, one per version:
#   docker build -f docker/sandbox-node.Dockerfile --build-arg NODE=22 \
#     -t hypofix/sandbox-node:1-node22 docker/
# (18, 20 and 22 are the versions Hypofix is tested on: docker/sandbox-node.versions).
# docker/build-sandbox-node-offline.sh builds equivalent images without a registry. Contract:
# non-root uid 10001, workdir /work, HOME=/tmp, node, npm, npx and corepack with yarn and pnpm
# shims on PATH, COREPACK_HOME=/opt/hypofix/corepack and YARN_GLOBAL_FOLDER=/opt/hypofix/yarn
# owned by 10001 (a setup's package manager and Yarn's cache stay in the environment image), sh,
# timeout and kill; /usr/local/lib/hypofix/node, a copy of node the sandbox user may run but not read
# (the kernel makes a process of an unreadable binary non-dumpable: the command runner's key stays
# out of the tests' reach); labels org.hypofix.sandbox=node and org.hypofix.node=<version>.
ARG NODE=20
FROM node:${NODE}-bookworm-slim
# The official image's yarn 1 would shadow corepack's shim; corepack serves every yarn version.
# Node 25 and later ship without corepack: it then comes from npm.
RUN rm -f /usr/local/bin/yarn /usr/local/bin/yarnpkg \
 && (command -v corepack >/dev/null || npm install -g corepack) \
 && corepack enable --install-directory /usr/local/bin yarn pnpm \
 && mkdir -p /usr/local/lib/hypofix && install -m 0711 "$(command -v node)" /usr/local/lib/hypofix/node \
 && apt-get update && apt-get install -y --no-install-recommends procps && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 sandbox \
 && useradd --uid 10001 --gid 10001 --home-dir /work --no-create-home --shell /bin/sh sandbox \
 && mkdir -p /work /opt/hypofix/corepack && chown 10001:10001 /work && chown -R 10001:10001 /opt/hypofix
ENV LANG=C.UTF-8 HOME=/tmp COREPACK_HOME=/opt/hypofix/corepack YARN_GLOBAL_FOLDER=/opt/hypofix/yarn COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    COREPACK_ENABLE_AUTO_PIN=0 npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# NODE_VERSION is the official image's own variable: the full version, like the offline image's label.
LABEL org.hypofix.sandbox=node org.hypofix.node=${NODE_VERSION} org.hypofix.node-runner=1
USER 10001:10001
WORKDIR /work
CMD ["/bin/sh"]
