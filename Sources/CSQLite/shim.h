#ifndef SIGNINKIT_CSQLITE_SHIM_H
#define SIGNINKIT_CSQLITE_SHIM_H

// The system's SQLite on Linux (libsqlite3-dev). Apple platforms use the SDK's SQLite3 module.
#include <sqlite3.h>

#endif
