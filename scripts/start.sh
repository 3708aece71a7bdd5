#!/bin/sh
# `npm start`: scripts/start.mjs sets up what is missing and says how to run the server; this shell then becomes the
# server (exec), so no launcher process stays beside it (a Node process of ~25 MB) and npm's signals reach it directly.
# Arguments are passed to the server.
set -e
cd "$(dirname "$0")/.."
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
node scripts/start.mjs --plan="$plan"
command=$(cat "$plan")
rm -f "$plan"
trap - EXIT
eval "exec $command \"\$@\""
