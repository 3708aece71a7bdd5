# DocFlow in one image: the API, the dashboard and the engines. The Node.js version is the one the two commands pin
# (scripts/node-runtime.mjs); the Debian packages come from the same list the set-up script installs, so the two
# cannot drift apart.
FROM node:24.21.0-bookworm-slim

ENV NODE_ENV=production DEBIAN_FRONTEND=noninteractive DATA_DIR=/data HOST=0.0.0.0 PORT=3000
WORKDIR /app

COPY scripts/bootstrap.mjs scripts/
RUN node -e "import('./scripts/bootstrap.mjs').then((m) => m.ensureDebianPackages())" \
 && rm -rf /var/lib/apt/lists/*

COPY . .
RUN node -e "import('./scripts/bootstrap.mjs').then((m) => { m.ensureNodeModules(); m.ensureApiBuild(); m.ensureWebBuild(); })" \
 && node --import tsx apps/api/src/data/pglite-template.ts \
 && mkdir -p /data && chown -R node:node /data

# The server and the tools it starts run as the image's unprivileged user.
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:3000/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["sh", "scripts/start.sh"]
