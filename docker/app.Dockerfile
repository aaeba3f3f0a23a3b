# The Hypofix App image: `hypofix serve` and `hypofix worker` (the entrypoint is `hypofix`).
#
#   docker build -f docker/app.Dockerfile -t hypofix/app .
#   docker build -f docker/app.Dockerfile --build-arg BASE=hypofix/node-base:20 -t hypofix/app .
#
# BASE is any Debian-based image with Node >= 20.18.1 and npm: the official one where a
# registry can be pulled from, or the one docker/build-node-base-offline.sh builds
# without a registry. The classic builder suffices (no BuildKit features).
ARG BASE=node:20-bookworm-slim

# The compiled JavaScript: `npm run build` (tsc, then the run-time files copied beside it), as
# `npm pack` builds the published package; the image runs dist/, never src/ through tsx.
FROM ${BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.ts ./scripts/build.ts
COPY src ./src
RUN npm run build

FROM ${BASE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, exactly as locked; no install scripts (none is needed at run time).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${BASE}
# git fetches the repositories under repair; tini reaps and forwards signals (SIGTERM lets jobs finish).
RUN if ! command -v git >/dev/null || ! command -v tini >/dev/null; then \
      apt-get update && apt-get install -y --no-install-recommends git ca-certificates tini \
      && rm -rf /var/lib/apt/lists/*; \
    fi \
 && (id -u hypofix >/dev/null 2>&1 || useradd --uid 10002 --user-group --create-home --shell /bin/sh hypofix)
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json app.yml ./
COPY bin ./bin
# What the published package ships: without src/, bin/hypofix.js runs dist/cli.js.
COPY --from=build /app/dist ./dist
COPY prompts ./prompts
COPY docker ./docker
RUN ln -s /app/bin/hypofix.js /usr/local/bin/hypofix
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
USER hypofix
EXPOSE 3000
# serve answers on PORT; a worker on HYPOFIX_METRICS_PORT (compose sets it).
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.HYPOFIX_METRICS_PORT||process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["tini", "--", "hypofix"]
CMD ["serve"]
