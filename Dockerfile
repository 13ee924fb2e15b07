# titlegraph: the service, compiled, on Node 26, as a non-root user.
#   docker build -t titlegraph .                                  the service (the default target)
#   docker build --target telemetry -t titlegraph:telemetry .     the same, with the OpenTelemetry SDK
#   docker build --target full -t titlegraph:full .               with the emulator and GraphiQL too
#   docker run -p 4000:4000 -v titlegraph-data:/data --env-file titlegraph.env titlegraph
# A production start needs REGISTER_BASE_URL (ending in /v1) and TITLEGRAPH_TENANTS_FILE (see the
# README's Configuration and Deployment). The default target leaves out what the running service
# never loads: tsx and esbuild (it runs dist/), pdf-lib (the emulator's PDFs) and GraphiQL's page
# (off in production): REGISTER=emulator and GRAPHIQL=true need the full target, and say so.
# test/process/container-image.test.ts performs these steps without a container runtime.

FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# Every production dependency: what the full target runs.
FROM node:26-slim AS packages
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund

# What the compiled service loads: npm removes the three and what only they needed (esbuild, pako).
FROM packages AS service-packages
RUN npm uninstall --omit=dev --no-audit --no-fund tsx pdf-lib @graphql-yoga/render-graphiql

# The OpenTelemetry Node SDK in a folder of its own, with its own lockfile (the versions titlegraph's
# tests run), so a production install beside it stays as it is, and the preload that loads it.
FROM node:26-slim AS telemetry-packages
WORKDIR /otel
COPY examples/deployment/telemetry/package.json examples/deployment/telemetry/package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY examples/observability/otel.mjs examples/observability/instrumentations.mjs ./

FROM node:26-slim AS runtime
ENV NODE_ENV=production \
    PORT=4000 \
    DATA_DIR=/data
WORKDIR /app
# dist/ is ES modules: package.json's "type" says so.
COPY package.json ./
COPY --from=build /app/dist ./dist
# The embedded stores (idempotency journal, quota ledger, persisted queries) live in DATA_DIR
# unless DATABASE_URL points at PostgreSQL; the volume keeps them across restarts.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 4000
# Liveness without curl: Node's own fetch. /health never looks at the register.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node runs as PID 1 and handles SIGTERM itself: it stops accepting, lets in-flight requests
# finish for up to SHUTDOWN_DEADLINE_MS (35 s), and a purchase still at the register for up to
# REGISTER_CALL_DEADLINE_MS (30 s) more, then exits. That is longer than the default grace
# periods (Docker 10 s, Kubernetes 30 s): give it 75 s (`docker run --stop-timeout 75`,
# compose `stop_grace_period: 75s`, Kubernetes `terminationGracePeriodSeconds: 75`), or a stop
# kills a purchase mid-answer and its caller reads OUTCOME_UNKNOWN.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/start.js"]

# For a demonstration and compose.yaml's emulator service: every production dependency, so
# REGISTER=emulator, GRAPHIQL=true and `node dist/emulator/main.js` work.
FROM runtime AS full
COPY --from=packages /app/node_modules ./node_modules

# The service with OpenTelemetry: the SDK in /otel, preloaded by /otel/otel.mjs; configure it with
# the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, …).
FROM runtime AS telemetry
COPY --from=service-packages /app/node_modules ./node_modules
COPY --from=telemetry-packages /otel /otel
ENV OTEL_ENABLED=true
CMD ["node", "--enable-source-maps", "--import", "/otel/otel.mjs", "dist/start.js"]

# The default target (the last): the service alone.
FROM runtime AS service
COPY --from=service-packages /app/node_modules ./node_modules
