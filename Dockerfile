# syntax=docker/dockerfile:1
# proofpr as a container: `proofpr serve` by default, `proofpr worker` with REDIS_URL (see compose.yaml).
# The sandbox (bubblewrap) needs user namespaces inside the container: run it with
#   --security-opt seccomp=unconfined --security-opt apparmor=unconfined
# (not --privileged), and a stop timeout longer than the drain: --stop-timeout 45.

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bin ./bin
COPY dist ./dist
COPY docs ./docs
COPY examples ./examples
COPY README.md LICENSE SECURITY.md CHANGELOG.md action.yml app.yml ./
RUN npm run build && mkdir /pkg && npm pack --ignore-scripts --pack-destination /pkg && mv /pkg/proofpr-*.tgz /pkg/proofpr.tgz

FROM node:22-bookworm-slim
# git for mirrors and worktrees, ripgrep for Grep, bubblewrap for the sandbox, tini to forward SIGTERM.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ripgrep bubblewrap ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /pkg/proofpr.tgz /tmp/proofpr.tgz
# better-sqlite3 (optional) comes with its prebuilt binary for serve's embedded queue; the Bedrock and
# Vertex SDKs (optional peer dependencies, left out of a plain npm install) are installed beside it, so
# `provider: bedrock | vertex` works in the image.
# hadolint ignore=DL3016
RUN npm install -g --no-audit --no-fund /tmp/proofpr.tgz @anthropic-ai/bedrock-sdk@^1.1.4 @anthropic-ai/vertex-sdk@^1.1.4 \
 && rm /tmp/proofpr.tgz && npm cache clean --force
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin proofpr \
 && mkdir -p /data && chown proofpr:proofpr /data
ENV NODE_ENV=production \
    PROOFPR_HOME=/data \
    PORT=3000 \
    PROOFPR_DRAIN_GRACE_MS=30000
VOLUME ["/data"]
USER proofpr
WORKDIR /home/proofpr
EXPOSE 3000
STOPSIGNAL SIGTERM
# serve answers /healthz on PORT; a worker on PROOFPR_METRICS_PORT when set.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PROOFPR_METRICS_PORT||process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["tini", "--", "proofpr"]
CMD ["serve"]
