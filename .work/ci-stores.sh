# stores: the PostgreSQL tests of @raw/store-postgres start a throwaway cluster with Debian's postgresql binaries.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql
fi
