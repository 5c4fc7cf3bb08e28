# syntax=docker/dockerfile:1
# repairmon serve in a container: build with dev dependencies, ship only what the monitor loads.
#   docker build -t repairmon .
#   docker run --rm -p 9464:9464 -v "$PWD/monitor.yaml:/etc/repairmon/monitor.yaml:ro" \
#     --env-file keys.env repairmon            # keys.env: NAME=secret, one per ${NAME} in monitor.yaml
# Extra flags go after the image name, e.g. `repairmon --shard 0/3`.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Scripts off: `prepare` would compile before the sources are copied; the build runs below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY bin ./bin
COPY cli ./cli
COPY lib ./lib
COPY monitor ./monitor
COPY api ./api
COPY diagnose ./diagnose
COPY discover ./discover
COPY sandbox ./sandbox
COPY generators ./generators
COPY templates ./templates
RUN npm run build

# Not the root manifest: its production dependencies include the generator's (yeoman-environment,
# handlebars: 359 packages). deploy/monitor-image/ holds the root's dependencies that the monitor's
# code imports, at the root's ranges and locked versions (34 packages; generate.mjs, DEPENDENCIES.md).
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /src
COPY deploy/monitor-image/package.json deploy/monitor-image/package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/bin ./bin
# The root package.json only for the version in repairmon_build_info; nothing installs from it here.
# No api/, templates/ or generators/: they are the generator's; `repairmon new` says so and exits 2.
COPY package.json ./
RUN chmod 0755 bin/repairmon.js \
  && ln -s /app/bin/repairmon.js /usr/local/bin/repairmon \
  && mkdir -p /etc/repairmon
# The image's unprivileged `node` user, by number so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/-/healthy').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["repairmon", "serve"]
CMD ["--config", "/etc/repairmon/monitor.yaml", "--listen", "0.0.0.0:9464"]
