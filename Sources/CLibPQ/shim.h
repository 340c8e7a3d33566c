#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H

// libpq, PostgreSQL's own client library, for the StatsStore module only (the shared stats store:
// `--store postgres://…`). It reads PGPASSWORD, ~/.pgpass, PGSSLMODE and the other PG* settings
// itself, as psql does.
#include <libpq-fe.h>

#endif
