#ifndef SIGNINKIT_CENVIRONMENT_SHIM_H
#define SIGNINKIT_CENVIRONMENT_SHIM_H

// The C library's environment block, read through a function: Swift 6 refuses to touch the
// mutable global `environ` itself. SignInFoundation's ProcessEnvironment reads it at launch.
#include <unistd.h>

extern char **environ;

static inline char *const *signinkit_environment(void) { return environ; }

#endif
