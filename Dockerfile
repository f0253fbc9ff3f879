# syntax=docker/dockerfile:1
# Multi-stage image: one target for the gateway (SSR + proxy), one for the reference backend.
#   docker build --target gateway -t argus-gateway .
#   docker build --target backend -t argus-backend .
# TypeScript runs directly on Node 24 (type stripping), so the runtime stages need no compiler.
# tests/integration/dockerfile.test.ts checks this file against the repository and the config.

FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# CI's install command (.ci/run): `npm ci` rejects this lockfile (docs/decisions/001). No install
# scripts: the image brings Node 24, so the registry's `node` package (for dev machines) is unused.
RUN npm install --no-audit --no-fund --ignore-scripts && rm -f node_modules/.bin/node

FROM deps AS build
COPY . .
RUN npx react-router build && npm prune --omit=dev --ignore-scripts

# Application files belong to root and are read-only for the `node` user that runs them.
FROM node:24-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/shared ./shared

FROM runtime AS backend
COPY backend ./backend
# The one writable folder: PGlite's data when DATABASE_URL is not set. Mount a volume here.
RUN mkdir -p /app/.data && chown node:node /app/.data
ENV BACKEND_HOST=0.0.0.0 BACKEND_PORT=3001 DATA_DIR=/app/.data
# Billing is chosen at run time, never here: STRIPE_SECRET_KEY and STRIPE_PRICE_ID, or
# BILLING_SANDBOX=true for a deployment that charges nothing (a demo). With neither the backend
# refuses to start (docs/operations.md#configuration).
USER node
EXPOSE 3001
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:3001/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# A small young generation, as scripts/lib/stack.ts starts the backend (docs/performance.md).
CMD ["node", "--max-semi-space-size=4", "backend/index.ts"]

FROM runtime AS gateway
COPY --from=build /app/build ./build
COPY server ./server
# Two malloc arenas, as scripts/lib/stack.ts starts the gateway: one per thread kept tens of MB
# more resident after load (docs/decisions/050-gateway-memory.md).
ENV HOST=0.0.0.0 PORT=3000 MALLOC_ARENA_MAX=2
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
  CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# V8's heap sizing, memory reducer and gc (for the collection once idle, server/idle-collection.ts)
# as scripts/lib/stack.ts starts the gateway: V8's defaults kept 100-200 MB more resident under load
# and after it (docs/performance.md).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=100", "--gc-memory-reducer-start-delay-ms=2000", "--expose-gc", "server/index.ts"]
