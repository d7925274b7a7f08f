#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL 15 cluster: initdb in a temp dir, start on a free
# port (Unix socket in the same temp dir), run the command with DATABASE_URL set, stop and remove.
# Usage: scripts/with-postgres.sh npx vitest run --project server
set -euo pipefail

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
if [ $# -eq 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi

TMP=$(mktemp -d /tmp/pg-throwaway.XXXXXX)
chmod 755 "$TMP"
PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")

as_postgres() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ "$(id -u)" = "0" ]; then chown postgres "$TMP"; fi

cleanup() {
  as_postgres "$PGBIN/pg_ctl" -D "$TMP/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap cleanup EXIT

as_postgres "$PGBIN/initdb" -D "$TMP/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$TMP/initdb.log" 2>&1 ||
  { cat "$TMP/initdb.log" >&2; exit 1; }
as_postgres "$PGBIN/pg_ctl" -D "$TMP/data" -l "$TMP/server.log" -w \
  -o "-p $PORT -k $TMP -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null || { cat "$TMP/server.log" >&2; exit 1; }

export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "with-postgres: DATABASE_URL=$DATABASE_URL" >&2
set +e
"$@"
STATUS=$?
set -e
exit $STATUS
