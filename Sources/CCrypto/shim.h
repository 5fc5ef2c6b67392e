// OpenSSL's digests (libcrypto, from libssl-dev): SHA-256 with the machine's SHA instructions.
#include <openssl/evp.h>
