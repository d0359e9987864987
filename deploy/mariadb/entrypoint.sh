#!/usr/bin/env bash
# mariadb-entrypoint [mariadbd options...] - MariaDB in a container, alone or as one node of a Galera cluster.
#
# An empty data directory is initialised, with the database MARIADB_DATABASE and the user MARIADB_USER (password
# MARIADB_PASSWORD, required then) having every right on it; the administrator is the OS user mysql over the unix
# socket (no password exists). Options given as arguments go to mariadbd last.
#
# Galera (GALERA_CLUSTER_ADDRESS set, e.g. gcomm://galera1,galera2,galera3), as Debian's packages and
# galera-local.sh run it: rsync state transfers, ROW binary log, interleaved auto-increments. At start, a node
#   - joins the cluster when another node is in its primary component (by IST, or by a full copy when its directory
#     is empty; an empty node other than the first waits up to GALERA_WAIT_SECONDS for one, then exits);
#   - else starts a new cluster (--wsrep-new-cluster) from its own data when grastate.dat says safe_to_bootstrap: 1
#     (the node that left last after a clean stop), when GALERA_FORCE_BOOTSTRAP=1 (after every node crashed: set it
#     on the most advanced node only, see docs/deploy.md), or, with an empty directory, when GALERA_BOOTSTRAP=1
#     (the first node of a new cluster);
#   - else, when it crashed while in the cluster, starts: Galera restores the last primary component once every member
#     of it is back (pc.recovery); a node that left cleanly waits up to GALERA_WAIT_SECONDS for the cluster instead.
#
# Environment (default): MARIADB_DATABASE (messaging), MARIADB_USER (messaging), MARIADB_PASSWORD,
#   MARIADB_BUFFER_POOL (128M), GALERA_CLUSTER_ADDRESS, GALERA_CLUSTER_NAME (messaging), GALERA_BOOTSTRAP (0),
#   GALERA_FORCE_BOOTSTRAP (0), GALERA_WAIT_SECONDS (120), GALERA_GCACHE_SIZE (128M),
#   GALERA_PROVIDER_OPTIONS (extra wsrep_provider_options, ';' separated)
set -Eeuo pipefail

DATADIR=/var/lib/mysql
SOCKET=/run/mysqld/mysqld.sock
DATABASE="${MARIADB_DATABASE:-messaging}"
USER_NAME="${MARIADB_USER:-messaging}"
CLUSTER_ADDRESS="${GALERA_CLUSTER_ADDRESS:-}"

log() { printf 'mariadb-entrypoint: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

[[ "$DATABASE" =~ ^[A-Za-z0-9_]{1,64}$ ]] || die "MARIADB_DATABASE may only hold letters, digits and _"
[[ "$USER_NAME" =~ ^[A-Za-z0-9_]{1,80}$ ]] || die "MARIADB_USER may only hold letters, digits and _"

ARGS=(--no-defaults --datadir="$DATADIR" --socket="$SOCKET" --pid-file=/run/mysqld/mysqld.pid
  --skip-name-resolve --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci
  --default-time-zone=+00:00 --max-connections=500 --innodb-buffer-pool-size="${MARIADB_BUFFER_POOL:-128M}")

galera() { [[ -n "$CLUSTER_ADDRESS" ]]; }

GALERA_ARGS=(--binlog-format=ROW --default-storage-engine=InnoDB --innodb-autoinc-lock-mode=2 --wsrep-on=ON
  --wsrep-provider=/usr/lib/galera/libgalera_smm.so --wsrep-cluster-name="${GALERA_CLUSTER_NAME:-messaging}"
  --wsrep-cluster-address="$CLUSTER_ADDRESS" --wsrep-node-name="$(hostname)" --wsrep-sst-method=rsync
  --wsrep-provider-options="gcache.size=${GALERA_GCACHE_SIZE:-128M}${GALERA_PROVIDER_OPTIONS:+;$GALERA_PROVIDER_OPTIONS}")

sql_string() { local s="${1//\\/\\\\}"; printf "'%s'" "${s//\'/\'\'}"; }

# A new data directory, with the database and its user created on a server that takes no connection yet.
initialise() {
  [[ -n "${MARIADB_PASSWORD:-}" ]] || die "MARIADB_PASSWORD is required to initialise an empty data directory"
  log "initialising $DATADIR (database $DATABASE, user $USER_NAME)"
  mariadb-install-db --no-defaults --datadir="$DATADIR" --auth-root-authentication-method=socket \
    --auth-root-socket-user=mysql --skip-test-db --skip-name-resolve >/dev/null
  mariadbd "${ARGS[@]}" --skip-networking --wsrep-on=OFF &
  local pid=$! deadline=$(( SECONDS + 120 ))
  until mariadb-admin --no-defaults --socket="$SOCKET" -u mysql ping >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || die "the server stopped while initialising"
    (( SECONDS < deadline )) || die "the server did not answer within 120 s while initialising"
    sleep 0.2
  done
  mariadb --no-defaults --socket="$SOCKET" -u mysql <<SQL
CREATE DATABASE IF NOT EXISTS \`$DATABASE\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$USER_NAME'@'%' IDENTIFIED BY $(sql_string "$MARIADB_PASSWORD");
GRANT ALL PRIVILEGES ON \`$DATABASE\`.* TO '$USER_NAME'@'%';
SQL
  mariadb-admin --no-defaults --socket="$SOCKET" -u mysql shutdown
  wait "$pid" || true
}

# Another node of the cluster is in its primary component (asked as MARIADB_USER: the status needs no right).
primary_peer() {
  local peer IFS=','
  for peer in ${CLUSTER_ADDRESS#gcomm://}; do
    peer="${peer%%:*}"
    [[ -z "$peer" || "$peer" == "$(hostname)" ]] && continue
    if MYSQL_PWD="${MARIADB_PASSWORD:-}" mariadb --no-defaults -h "$peer" -u "$USER_NAME" --connect-timeout=1 -N -B \
      -e "SHOW GLOBAL STATUS LIKE 'wsrep_cluster_status'" 2>/dev/null | grep -q Primary; then
      return 0
    fi
  done
  return 1
}

wait_for_primary() {
  local deadline=$(( SECONDS + ${GALERA_WAIT_SECONDS:-120} ))
  log "waiting for another node of $CLUSTER_ADDRESS to be in the cluster"
  until primary_peer; do
    (( SECONDS < deadline )) || die "no other node is in the cluster: the node that left it last starts it again" \
      "(safe_to_bootstrap: 1 in its grastate.dat), or the one given GALERA_FORCE_BOOTSTRAP=1"
    sleep 1
  done
}

grastate() { sed -n -E "s/^$1:[[:space:]]*//p" "$DATADIR/grastate.dat" 2>/dev/null | head -n 1; }

# After a crash grastate.dat does not know the last committed position: InnoDB does, and with it the node can
# catch up by IST instead of a full copy (as Debian's galera_recovery does for systemd).
recovered_position() {
  [[ "$(grastate seqno)" == "-1" ]] || return 0
  mariadbd "${ARGS[@]}" "${GALERA_ARGS[@]}" --wsrep-recover --log-error="$DATADIR/wsrep-recover.log" >/dev/null 2>&1 || true
  sed -n -E 's/.*WSREP: Recovered position:[[:space:]]*([^[:space:]]+).*/\1/p' "$DATADIR/wsrep-recover.log" | tail -n 1
  rm -f "$DATADIR/wsrep-recover.log"
}

START=()
if [[ ! -d "$DATADIR/mysql" ]]; then
  if ! galera; then
    initialise
  elif primary_peer || { [[ "${GALERA_BOOTSTRAP:-0}" != 1 ]] && wait_for_primary; }; then
    log "empty data directory: joining the cluster, which sends a full copy"
  else
    initialise
    log "starting a new cluster"
    START=(--wsrep-new-cluster)
  fi
elif galera; then
  if primary_peer; then
    log "joining the cluster"
  elif [[ "$(grastate safe_to_bootstrap)" == 1 ]]; then
    log "no other node is in the cluster and this one left it last: starting the cluster again from it"
    START=(--wsrep-new-cluster)
  elif [[ "${GALERA_FORCE_BOOTSTRAP:-0}" == 1 ]]; then
    log "GALERA_FORCE_BOOTSTRAP=1: starting the cluster again from this node's data"
    sed -i -E 's/^safe_to_bootstrap:.*/safe_to_bootstrap: 1/' "$DATADIR/grastate.dat"
    START=(--wsrep-new-cluster)
  elif [[ -f "$DATADIR/gvwstate.dat" ]]; then
    log "this node stopped while in the cluster: starting; the cluster forms again once every member of its last" \
      "primary component is back"
  else
    wait_for_primary
  fi
fi

if galera; then
  ARGS+=("${GALERA_ARGS[@]}")
  position="$(recovered_position)"
  if [[ -n "$position" ]]; then log "recovered position $position"; ARGS+=(--wsrep-start-position="$position"); fi
fi
exec mariadbd "${ARGS[@]}" --port=3306 --bind-address=0.0.0.0 "${START[@]}" "$@"
