# titlegraph: the service, compiled, on Node 26, as a non-root user.
#   docker build -t titlegraph .
#   docker run -p 4000:4000 -v titlegraph-data:/data --env-file titlegraph.env titlegraph
# A production start needs REGISTER_BASE_URL (ending in /v1) and TITLEGRAPH_TENANTS_FILE, or
# REGISTER=emulator for a demonstration (see the README's Configuration and Deployment).
# test/process/container-image.test.ts performs these steps without a container runtime.

FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:26-slim
ENV NODE_ENV=production \
    PORT=4000 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
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
