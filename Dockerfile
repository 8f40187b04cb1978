# feed-sync worker image. Build: docker compose build; run: docker compose up (see docs/worker.md).

# 1. Build: all dependencies, TypeScript → dist/ (entry dist/src/cli/main.js).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY jobs ./jobs
RUN npm run build

# 2. Production dependencies only, in a clean tree.
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# 3. Runtime: tini as PID 1 (forwards SIGTERM, reaps zombies), non-root user, no build tools.
FROM node:24-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    FEED_SYNC_CONFIG=/config/feed-sync.yaml \
    REDIS_URL=redis://redis:6379 \
    UI_HOST=0.0.0.0 \
    UI_PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
# The config is mounted here (read-only is fine: the worker only watches it).
VOLUME ["/config"]
USER node
EXPOSE 3000
# /healthz: Redis reachable and the worker taking jobs. Needs UI_PORT (set above).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.UI_PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/src/cli/main.js"]
CMD ["worker"]
