/* tests/reader_fuzz.c - mutation fuzzing of a text reader (reader_fuzz.h). */
#include "reader_fuzz.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void th_fuzz_reader(th_case *tc, const char *sample, const char *name, th_reader_fn read, const char *harness)
{
    enum { ROUNDS = 3000, CAP = 4096 };
    static const char pick[] = "0123456789- \n#%\t\0\xff" "1";
    clirr_error err;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", th_tmp_dir(), name);
    FILE *f = fopen(sample, "rb");
    char base[CAP], buf[CAP];
    size_t blen = f ? fread(base, 1, CAP / 2, f) : 0;
    if (f)
        fclose(f);
    TH_REQUIRE(tc, blen > 0, "cannot read %s", sample);
    uint64_t rng = 99, accepted = 0;
    for (int round = 0; round < ROUNDS; round++) {
        size_t len = blen;
        memcpy(buf, base, len);
        for (int k = 0; k < 1 + round % 3; k++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(rng >> 33) % (len ? len : 1);
            char c = pick[(rng >> 20) % (sizeof pick - 1)];
            switch ((rng >> 40) % 4) {
            case 0: if (len) buf[at] = c; break;
            case 1: memmove(buf + at + 1, buf + at, len - at); buf[at] = c; len++; break;
            case 2: if (len) { memmove(buf + at, buf + at + 1, len - at - 1); len--; } break;
            default: len = at; break;
            }
        }
        FILE *o = fopen(path, "wb");
        TH_REQUIRE(tc, o && fwrite(buf, 1, len, o) == len && fclose(o) == 0, "cannot write");
        clirr_error_clear(&err);
        int rc = read(path, &err);
        TH_REQUIRE(tc, rc != CLIRR_ERR_VERIFY, "round %d: accepted an invalid input: %s", round, err.msg);
        TH_REQUIRE(tc, rc == CLIRR_OK || rc == CLIRR_ERR_INPUT, "round %d: status %s: %s", round,
                   clirr_status_name(rc), err.msg);
        if (rc == CLIRR_OK)
            accepted++;
        else
            TH_REQUIRE(tc, strstr(err.msg, name), "round %d: message does not name the file: %s", round, err.msg);
    }
    TH_EXPECT(tc, accepted > 0, "no mutated file was accepted");
    char exe[1024], out[4096], errtext[4096];
    snprintf(exe, sizeof exe, "%s/%s", CLIRR_TEST_FUZZ_DIR, harness);
    if (access(exe, X_OK) != 0) {
        th_skip(tc, "%s not built", exe);
        return;
    }
    char *argv[] = {exe, "--mutate", "300", "--seed", "7", (char *)sample, NULL};
    int sig = 0, rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, &sig);
    TH_EXPECT(tc, rc == 0 && strstr(out, "no crash"), "%s: exit %d, signal %d: %s%s", harness, rc, sig, out,
              errtext);
done:;
}
