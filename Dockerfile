# syntax=docker/dockerfile:1
# Searchmux, self-hosted: `docker build -t searchmux .`, or the whole stack with `docker compose up`
# (compose.yaml). The image is the standalone server (`node server.js`, built with SEARCHMUX_STANDALONE=1,
# next.config.ts) assembled by scripts/assemble-standalone.mjs — the same directory
# tests/reliability/standalone.test.ts runs — with the compiled CLI in dist/: `node dist/db-migrate.mjs`
# applies migrations, `node dist/smx.mjs` is the operator CLI. It runs as the unprivileged `node` user;
# without DATABASE_URL the embedded database and the generated secrets live in /data (a volume).
# `--build-arg SEARCHMUX_EMBEDDED_DATABASE=0` leaves the embedded database out (~30 MB less; the server then
# refuses to start without DATABASE_URL), as compose.yaml does.
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
ARG SEARCHMUX_EMBEDDED_DATABASE=1
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN SEARCHMUX_STANDALONE=1 npm run build && node scripts/assemble-standalone.mjs /app

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    SEARCHMUX_DATA_DIR=/data
# The heap ceiling npm start sets too: V8 sizes its heap by the machine's memory otherwise, and lets
# garbage pile up to far more than the ~100 MB the server holds live (bench/README.md, memory).
ENV NODE_OPTIONS=--max-old-space-size=256
# Owned by root, so the server cannot rewrite its own code; it writes only /data and Next's cache.
COPY --from=build /app ./
RUN mkdir -p /data .next/cache && chown node:node /data .next/cache
USER node
EXPOSE 3000
VOLUME ["/data"]
# Readiness, not liveness: "unhealthy" while the database, the KV store or the key-encryption keys cannot
# serve (/api/ready answers 503), so proxies that follow Docker's health (compose's Caddy checks the same
# route itself) send it no traffic; it turns healthy again by itself once the dependency is back.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
