/* host/runtime/bincache.c - program binaries cached on disk, keyed by a hash
 * of everything they depend on. An entry is: magic, format version, key,
 * binary length, XXH3-64 checksum of the binary, the binary. Anything that
 * does not check out is treated as missing and rebuilt, never trusted. */
#include "runtime/bincache.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static const char MAGIC[8] = {'C', 'L', 'I', 'R', 'R', 'P', 'B', 'N'};
#define FORMAT_VERSION 1u

typedef struct entry_header {
    char magic[8];
    uint32_t version;
    uint32_t reserved;
    uint64_t key_hi, key_lo;
    uint64_t size;
    uint64_t checksum;
} entry_header;

clirr_cache_key clirr_cache_key_make(const char *platform, const char *platform_version,
                                     const char *device, const char *device_version,
                                     const char *driver, const char *options,
                                     const char *source)
{
    XXH3_state_t *st = XXH3_createState();
    clirr_cache_key key = {0, 0};
    if (!st)
        return key;
    XXH3_128bits_reset(st);
    const char *parts[] = {"clirr-program-v1", platform, platform_version, device,
                           device_version, driver, options, source};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        /* Include the terminating NUL so fields cannot run into each other. */
        XXH3_128bits_update(st, parts[i], strlen(parts[i]) + 1);
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    key.hi = h.high64;
    key.lo = h.low64;
    return key;
}

const char *clirr_cache_dir(void)
{
    static char dir[PATH_MAX];
    const char *env = getenv("CLIRR_CACHE_DIR");
    if (env) {
        if (!*env || !strcmp(env, "off"))
            return NULL;
        snprintf(dir, sizeof dir, "%s", env);
        return dir;
    }
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/clirr", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.cache/clirr", home);
    else
        return NULL;
    return dir;
}

void clirr_cache_path(const clirr_cache_key *key, char *path, size_t size)
{
    const char *dir = clirr_cache_dir();
    snprintf(path, size, "%s/%016llx%016llx.bin", dir ? dir : ".",
             (unsigned long long)key->hi, (unsigned long long)key->lo);
}

bool clirr_cache_load(const clirr_cache_key *key, unsigned char **binary, size_t *size,
                      bool *corrupt)
{
    *binary = NULL;
    *size = 0;
    *corrupt = false;
    if (!clirr_cache_dir())
        return false;
    char path[PATH_MAX];
    clirr_cache_path(key, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    entry_header h;
    struct stat st;
    unsigned char *bin = NULL;
    bool ok = fread(&h, sizeof h, 1, f) == 1 && fstat(fileno(f), &st) == 0 &&
              !memcmp(h.magic, MAGIC, sizeof MAGIC) && h.version == FORMAT_VERSION &&
              h.key_hi == key->hi && h.key_lo == key->lo && h.size > 0 &&
              (uint64_t)st.st_size == sizeof h + h.size;
    if (ok && (bin = malloc(h.size)) != NULL)
        ok = fread(bin, 1, h.size, f) == h.size && XXH3_64bits(bin, h.size) == h.checksum;
    else
        ok = false;
    fclose(f);
    if (!ok) {
        free(bin);
        *corrupt = true;
        return false;
    }
    *binary = bin;
    *size = h.size;
    return true;
}

/* mkdir -p for the cache folder. */
static bool make_dirs(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

bool clirr_cache_store(const clirr_cache_key *key, const unsigned char *binary, size_t size)
{
    const char *dir = clirr_cache_dir();
    if (!dir || size == 0 || !make_dirs(dir))
        return false;
    char path[PATH_MAX], tmp[PATH_MAX + 16];
    clirr_cache_path(key, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return false;
    entry_header h = {.version = FORMAT_VERSION, .key_hi = key->hi, .key_lo = key->lo,
                      .size = size, .checksum = XXH3_64bits(binary, size)};
    memcpy(h.magic, MAGIC, sizeof MAGIC);
    FILE *f = fdopen(fd, "wb");
    bool ok = f && fwrite(&h, sizeof h, 1, f) == 1 && fwrite(binary, 1, size, f) == size;
    if (f)
        ok = fclose(f) == 0 && ok;
    else
        close(fd);
    if (ok)
        ok = rename(tmp, path) == 0;
    if (!ok)
        unlink(tmp);
    return ok;
}
