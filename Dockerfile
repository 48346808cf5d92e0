# The Waymark gateway. Build: docker build -t waymark .   Run: see docker-compose.yml and docs/docker.md.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY tsconfig.json tsconfig.build.json ./
COPY core ./core
COPY ports ./ports
COPY adapters ./adapters
COPY server ./server
COPY importers ./importers
COPY bin ./bin
# The build's second step bundles the dashboard (dashboard/build.mjs); the server serves dist/dashboard.
COPY dashboard ./dashboard
# `prepare` builds dist/ during install; devDependencies are dropped afterwards.
RUN npm install --no-audit --no-fund && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production WAYMARK_DATA_DIR=/data PORT=8080
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/waymark.js"]
CMD ["serve"]
