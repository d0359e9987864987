#!/usr/bin/env bash
# mariadb-healthcheck - exit 0 when the server takes queries: alone, when it answers; as a Galera node, when it is
# Synced in the primary component (a joining or isolated node refuses the service's statements).
set -euo pipefail
query() { mariadb --no-defaults --socket=/run/mysqld/mysqld.sock -u mysql --connect-timeout=2 -N -B -e "$1"; }
if [[ -z "${GALERA_CLUSTER_ADDRESS:-}" ]]; then
  query 'SELECT 1' >/dev/null
else
  [[ "$(query "SHOW GLOBAL STATUS LIKE 'wsrep_local_state_comment'" | cut -f2)" == Synced ]]
  [[ "$(query "SHOW GLOBAL STATUS LIKE 'wsrep_ready'" | cut -f2)" == ON ]]
fi
