/* host/runtime/bincache.h - the on-disk cache of built program binaries. */
#ifndef CLIRR_RUNTIME_BINCACHE_H
#define CLIRR_RUNTIME_BINCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct clirr_cache_key {
    uint64_t hi, lo; /* XXH3-128 of everything a binary depends on */
} clirr_cache_key;

/* Key over the platform, device, driver, build options and full source. */
clirr_cache_key clirr_cache_key_make(const char *platform, const char *platform_version,
                                     const char *device, const char *device_version,
                                     const char *driver, const char *options,
                                     const char *source);

/* The cache folder ($CLIRR_CACHE_DIR, else $XDG_CACHE_HOME/clirr, else
 * ~/.cache/clirr), or NULL when caching is off (CLIRR_CACHE_DIR set empty or
 * to "off", or no home). */
const char *clirr_cache_dir(void);

/* Look the key up. Returns true with a malloc'd binary when an entry exists
 * and is intact (magic, key, length and checksum all match); *corrupt is set
 * when an entry exists but fails a check. */
bool clirr_cache_load(const clirr_cache_key *key, unsigned char **binary, size_t *size,
                      bool *corrupt);

/* Store a binary (written to a temporary file, then renamed into place, so
 * readers never see half an entry). Returns false when it could not. */
bool clirr_cache_store(const clirr_cache_key *key, const unsigned char *binary, size_t size);

/* Path of the entry for key (for tests and messages). */
void clirr_cache_path(const clirr_cache_key *key, char *path, size_t size);

#endif
