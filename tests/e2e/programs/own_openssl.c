/* A program that uses OpenSSL's libcrypto itself: hashes a string, prints
   the digest, and tears OpenSSL down with OPENSSL_cleanup before it exits
   (after which libcrypto cannot be initialised again in this process).
   Built plain and through hcc, it prints the same, and hcc still writes its
   profile afterwards. */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

static void digest(const char *text) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
  EVP_DigestUpdate(ctx, text, strlen(text));
  EVP_DigestFinal_ex(ctx, md, &len);
  EVP_MD_CTX_free(ctx);
  for (unsigned int i = 0; i < len; ++i) printf("%02x", md[i]);
  printf("  %s\n", text);
}

int main(void) {
  digest("hcc");
  digest("");
  OPENSSL_cleanup();
  return 0;
}
