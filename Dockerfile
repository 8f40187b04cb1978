# feed-sync worker image. Build: docker compose build; run: docker compose up (see docs/worker.md).

# 1. Build: all dependencies, TypeScript → dist/ (entry dist/src/cli/main.js), bundled by rolldown
#    with the pure-JS dependencies every start loads (scripts/build.mjs; docs/performance.md,
#    "Start-up"). --ignore-scripts: the `node` devDependency (Node 24 for machines without it) would
#    download a second Node; the image has one, and the build is run with it directly.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts/build.mjs ./scripts/
COPY src ./src
COPY jobs ./jobs
RUN node scripts/build.mjs

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
# A heap bounded for a 512 MB container (docs/performance.md): V8 otherwise sizes its heap from the
# host's memory and grows into it with garbage. A sync keeps ~50 bytes a listing (digests and a key
# arena, not records), so 160 MB of old space carries a feed of a million listings (peak RSS ~390 MB for a
# no-op or a run that changes every listing, ~350 MB for a feed that came back half empty, ~250 MB for
# the initial sync, docs/performance.md); beyond that, raise --max-old-space-size with `-e NODE_OPTIONS=…`. The young
# generation has an 8 MB semi-space: at 1 MB a 100k no-op spent ~1.4 s of 10 s in GC pauses
# (1,000 scavenges, 58 full collections) against ~0.4 s at 16 MB; 8 MB is as fast as 16 and peaks
# ~40 MB lower, now that a second thread (the platform's pages) has a young generation too.
# The entrypoint starts the old generation at 40 MB (`--initial-old-space-size`, which Node does not
# take from NODE_OPTIONS): from V8's small default a 100k no-op made ~17 full collections while its
# index grew (−10% time at 100k, none at 10k); 48 and 64 were faster still at 100k but lifted the 1M
# no-op's peak over 400 MB, 40 keeps it where it was (docs/performance.md).
# MALLOC_ARENA_MAX=1: one glibc malloc arena for the process's threads (the run's, the decode
# thread's, libuv's) instead of one per thread: the columns a run keeps grow between short-lived
# buffers (file chunks, pages), and per-thread arenas kept the holes they left. A 1M no-op peaked
# ~20 MB lower (median of 6 runs: 391 against 410 MB) and a 1M rewrite ~30 MB lower (396–398 against
# 428–431 MB); a 10k no-op costs 3–9% more (the threads share the arena's lock), docs/performance.md.
# NODE_COMPILE_CACHE: V8's code cache on disk, filled at build time for the modules every command
# loads and by the first run for the rest (a short-lived command such as the healthcheck then starts
# without compiling its modules again).
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=160 --max-semi-space-size=8" \
    MALLOC_ARENA_MAX=1 \
    NODE_COMPILE_CACHE=/app/.compile-cache \
    FEED_SYNC_CONFIG=/config/feed-sync.yaml \
    REDIS_URL=redis://redis:6379
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
# Filled for both ways the image starts node: V8's flags are part of the cache's key, so the
# entrypoint's (with --initial-old-space-size) and the health check's (without) each need theirs.
RUN node --initial-old-space-size=40 dist/src/cli/main.js --help > /dev/null \
  && node dist/src/cli/main.js --help > /dev/null \
  && chown -R node:node /app/.compile-cache
# The config is mounted here (read-only is fine: the worker only watches it).
VOLUME ["/config"]
USER node
EXPOSE 3000
# The worker's heartbeat (Redis reachable, the worker taking jobs), written every 10 s to a file:
# works with the dashboard off and needs no port.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "dist/src/cli/main.js", "healthcheck"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "--initial-old-space-size=40", "dist/src/cli/main.js"]
CMD ["worker"]
