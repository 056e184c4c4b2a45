/* tests/fuzz/replay.c - a main for the fuzz harnesses without libFuzzer:
 *
 *     fuzz-read-EXT [--mutate N] [--seed S] FILE...
 *
 * feeds each FILE to LLVMFuzzerTestOneInput, then N mutations of it (1-3
 * random byte changes, inserts, deletes or cuts each; seeded, so a failure
 * replays). The suite runs this as the harnesses' smoke test; real fuzzing
 * builds them with -Dfuzz=true. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t next(uint64_t *s)
{
    *s += 0x9e3779b97f4a7c15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* One random edit of buf (len bytes, room for cap); returns the new length. */
static size_t mutate(uint8_t *buf, size_t len, size_t cap, uint64_t *s)
{
    size_t at = len ? next(s) % len : 0;
    static const uint8_t interesting[] = {'0', '9', '-', ' ', '\n', '%', '#', 0, 0xff, '.', 'e'};
    switch (next(s) % 4) {
    case 0:
        if (len)
            buf[at] = interesting[next(s) % sizeof interesting];
        return len;
    case 1:
        if (len < cap) {
            memmove(buf + at + 1, buf + at, len - at);
            buf[at] = interesting[next(s) % sizeof interesting];
            return len + 1;
        }
        return len;
    case 2:
        if (len) {
            memmove(buf + at, buf + at + 1, len - at - 1);
            return len - 1;
        }
        return len;
    default: return at; /* cut */
    }
}

int main(int argc, char **argv)
{
    unsigned long mutations = 0, seed = 1;
    int first = 1;
    for (; first + 1 < argc && argv[first][0] == '-'; first += 2) {
        if (!strcmp(argv[first], "--mutate"))
            mutations = strtoul(argv[first + 1], NULL, 10);
        else if (!strcmp(argv[first], "--seed"))
            seed = strtoul(argv[first + 1], NULL, 10);
    }
    uint64_t state = seed;
    for (int i = first; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        static uint8_t base[1 << 16], buf[1 << 16];
        size_t len = fread(base, 1, sizeof base, f);
        fclose(f);
        LLVMFuzzerTestOneInput(base, len);
        for (unsigned long k = 0; k < mutations; k++) {
            size_t n = len;
            memcpy(buf, base, len);
            for (int e = 1 + (int)(next(&state) % 3); e > 0; e--)
                n = mutate(buf, n, sizeof buf, &state);
            LLVMFuzzerTestOneInput(buf, n);
        }
    }
    printf("%d files, %lu mutations each: no crash\n", argc - first, mutations);
    return 0;
}
