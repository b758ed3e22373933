#ifndef SIGNINKIT_CSQLITE_SHIM_H
#define SIGNINKIT_CSQLITE_SHIM_H

// The system's SQLite header on Linux, for its types and constants. Nothing links libsqlite3:
// SignInStorage's SQLiteLibrary opens it when the first database opens. Apple platforms use
// the SDK's SQLite3 module.
#if __has_include(<sqlite3.h>)
#include <sqlite3.h>
#else
#error "SignInKit needs SQLite's header, sqlite3.h: install it (Debian and Ubuntu: apt-get install libsqlite3-dev; Fedora: dnf install sqlite-devel), then build again."
#endif

#endif
