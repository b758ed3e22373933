#ifndef SIGNINKIT_CLIBCRYPTO_SHIM_H
#define SIGNINKIT_CLIBCRYPTO_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

/* Composite macros Swift cannot import, as constants. */
static const int SIGNINKIT_EVP_PKEY_KEYPAIR = EVP_PKEY_KEYPAIR;
static const int SIGNINKIT_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;

#endif
