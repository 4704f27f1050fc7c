# syntax=docker/dockerfile:1
# Tandem's production image: the web server (Next.js standalone output) and, from the same image,
# the worker. docs/deployment.md says how to run it and why it is built this way.
#
#   docker build -t tandem .
#   docker run -p 3000:3000 -v tandem-data:/data tandem                          # web
#   docker run -v tandem-data:/data tandem node --import tsx src/worker.ts       # worker

# glibc, not Alpine: libsql, @napi-rs/canvas (OCR of scans) and sharp ship glibc binaries.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
# The pnpm the lockfile was written with (package.json "packageManager"), from npm: corepack
# would have to fetch its signing keys first.
RUN npm install -g pnpm@10.34.9 && npm cache clean --force
ENV CI=true NEXT_TELEMETRY_DISABLED=1
WORKDIR /repo

# The server and the workspace packages it depends on, and their part of the lockfile: a change
# to the extension, the e2e suite or the benches leaves every later layer cached.
FROM base AS prune
COPY . .
RUN pnpm dlx turbo@2.11.11 prune @tandem/server --docker

FROM base AS build
COPY --from=prune /repo/out/json/ ./
RUN pnpm install --frozen-lockfile
COPY --from=prune /repo/out/full/ ./
# next build type-checks apps/server, whose vitest.config.ts imports this root file; turbo prune
# copies the workspace's packages only.
COPY --from=prune /repo/vitest.shared.ts ./
RUN NEXT_OUTPUT=standalone pnpm exec turbo run build --filter=@tandem/server

# Production dependencies, laid out as in the workspace. The standalone output's own node_modules
# holds only what the web bundle imports; the parse pool's threads, the libSQL checkpoint thread,
# the worker and the CLI load the workspace's TypeScript through tsx at run time, which no
# bundler or tracer sees, so they need the packages' sources and their whole dependency tree.
FROM base AS production
COPY --from=prune /repo/out/json/ ./
# @next/swc is next build's compiler (~100 MB): the standalone server never loads it.
RUN pnpm install --frozen-lockfile --prod --filter-prod '@tandem/server...' \
  && rm -rf node_modules/.pnpm/@next+swc-*
COPY --from=prune /repo/out/full/ ./
# server.js and the compiled app (no build cache). Its .next/node_modules links the bundle's
# external packages into ../../node_modules/.pnpm, which this install lays out the same way.
COPY --from=build /repo/apps/server/.next/standalone/apps/server/server.js apps/server/
COPY --from=build /repo/apps/server/.next/standalone/apps/server/.next apps/server/.next
COPY --from=build /repo/apps/server/.next/static apps/server/.next/static

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
  NEXT_TELEMETRY_DISABLED=1 \
  HOSTNAME=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data
WORKDIR /app
COPY --from=production /repo ./
# The code stays root's and read-only to the server; it writes only the embedded store (DATA_DIR,
# unused with MONGODB_URI) and Next's cache.
RUN mkdir -p /data apps/server/.next/cache && chown node:node /data apps/server/.next/cache
USER node
# server.js changes to its own directory anyway; the worker and the CLI resolve from here too.
WORKDIR /app/apps/server
EXPOSE 3000
# node, not curl: the slim image has no curl. /api/health is 503 while the store is down.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server.js"]
