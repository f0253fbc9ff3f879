# syntax=docker/dockerfile:1
# Multi-stage image: one target for the gateway (SSR + proxy), one for the reference backend.
#   docker build --target gateway -t argus-gateway .
#   docker build --target backend -t argus-backend .
# TypeScript runs directly on Node 24 (type stripping), so the runtime stages need no compiler.

FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The image brings Node 24; the registry's `node` package (for dev machines) is not needed here.
RUN npm ci --ignore-scripts && rm -f node_modules/.bin/node

FROM deps AS build
COPY . .
RUN npx react-router build && npm prune --omit=dev --ignore-scripts

FROM node:24-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/shared ./shared
USER node

FROM runtime AS backend
COPY --chown=node:node backend ./backend
ENV BACKEND_HOST=0.0.0.0 BACKEND_PORT=3001 DATA_DIR=/app/.data
EXPOSE 3001
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:3001/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "backend/index.ts"]

FROM runtime AS gateway
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node server ./server
COPY --chown=node:node client/lib ./client/lib
ENV HOST=0.0.0.0 PORT=3000
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
  CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "server/index.ts"]
