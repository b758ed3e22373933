#ifndef SIGNINKIT_CCRYPT_SHIM_H
#define SIGNINKIT_CCRYPT_SHIM_H

// libxcrypt's header on Linux, for crypt_r's types, to verify imported bcrypt password hashes.
// Nothing links libcrypt: SignInCrypto's Bcrypt opens it at the first bcrypt hash it checks.
// OpenSSL has no bcrypt; Apple platforms' crypt(3) has none either.
#if __has_include(<crypt.h>)
#include <crypt.h>
#else
#error "SignInKit needs libxcrypt's header, crypt.h: install it (Debian and Ubuntu: apt-get install libcrypt-dev; Fedora: dnf install libxcrypt-devel), then build again."
#endif

#endif
