#ifndef SIGNINKIT_CCRYPT_SHIM_H
#define SIGNINKIT_CCRYPT_SHIM_H

// libxcrypt's crypt_r on Linux (libcrypt-dev), for verifying imported bcrypt password hashes.
// OpenSSL has no bcrypt; Apple platforms' crypt(3) has none either.
#include <crypt.h>

#endif
