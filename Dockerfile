# offer-widget BFF: build stage (dev dependencies, `npm run build`), then a slim runtime with production
# dependencies only, the compiled server, the script-tag bundle, the widget's server renderer (the demo's
# ?ssr=1) and the reports page's script, run as the unprivileged `node` user. The demo page and the
# playground are in it too (about 2.5 MB): sandbox mode (no ENGINE_TOKEN) serves them, so
# `docker run -p 8787:8787 offer-widget-bff` shows the product; with ENGINE_TOKEN set they stay off unless
# SERVE_DEMO_PAGES=true. Node 24, the current LTS (.ci/run tests it).
# test/package/deploy-layout.test.ts builds this runtime layout without Docker (from the COPY, RUN and CMD
# lines below) and serves a search from it: keep those lines simple.
#   docker build -t offer-widget-bff .
#   docker run -p 8787:8787 --env-file .env offer-widget-bff

FROM node:24.21-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY . .
RUN npm run build

FROM node:24.21-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 DATA_DIR=/var/lib/offer-widget
# As `npm run start:prod`: two glibc malloc arenas, not eight a core (the ledger's thread kept ~20 MB more).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-fund --no-audit && npm cache clean --force
COPY drizzle ./drizzle
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/embed ./dist/embed
COPY --from=build /app/dist/ssr ./dist/ssr
COPY --from=build /app/dist/reports ./dist/reports
COPY --from=build /app/dist/site ./dist/site
COPY public ./public
# The embedded ledger (PGlite) when DATABASE_URL is not set: owned by the runtime user, kept on a volume.
RUN mkdir -p /var/lib/offer-widget && chown node:node /var/lib/offer-widget
VOLUME /var/lib/offer-widget
USER node
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=3s --start-period=15s --retries=3 CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM from `docker stop` reaches node directly (exec form): in-flight requests finish, then it exits.
# The same command as `npm run start:prod`: a 2 MiB young generation and PGlite's WebAssembly kept on V8's
# baseline compiler keep the idle process under 200 MB (README, "Memory").
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "--liftoff-only", "dist/server/server/start-server.js"]
