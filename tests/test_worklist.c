/* tests/test_worklist.c - the worklist on its own: a round kernel pushes a
 * known multiset of items; the next input must be exactly that set (each
 * item once), for every push mode, with a capacity big enough and with
 * capacities so small that the round overflows, grows and reruns. The scan
 * push also starts from a scratch of 4 work-items' counts and 8 slots, so
 * that its rounds spill (atomics past the slots), widen the scratch, and
 * place spilled and counted pushes side by side. */
#include "harness.h"
#include "prim/worklist.h"

#include "cl/common/kargs.h"
#include "cl/common/worklist.def"

#include <stdlib.h>
#include <string.h>

/* The round kernel's parameters, written once: the kernel source gets the
 * list as text, the host its CLIRR_KARG indices. */
#define FAN_ARGS(X, S)                                                         \
    X(const uint, universe) S() X(const uint, fanout) S() CLIRR_WL_ARGS(X, S)
CLIRR_KARGS_STRUCT(fan_args, FAN_ARGS);
#define FAN_STR_(...) #__VA_ARGS__
#define FAN_STR(...) FAN_STR_(__VA_ARGS__)

/* Each input item u pushes (u * 7 + j * 13) % universe for j < fanout. */
static const char *kernel_src =
    "#include \"common/worklist.clh\"\n"
    "#define FAN_ARGS(X, S) " FAN_STR(FAN_ARGS(X, S)) "\n"
    "__kernel void fan(CLIRR_KPARAMS(FAN_ARGS)) {\n"
    "    WL_BEGIN;\n"
    "    for (uint i = get_global_id(0); i < wl_in_size; i += get_global_size(0)) {\n"
    "        uint u = wl_in[i];\n"
    "        for (uint j = 0; j < fanout; j++)\n"
    "            wl_push((u * 7u + j * 13u) % universe);\n"
    "    }\n"
    "    WL_END;\n"
    "}\n";

typedef struct wl_case {
    clirr_push_mode mode;
    size_t capacity;
    bool tiny_scratch; /* scan: start from 4 counts and 8 slots */
} wl_case;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void rounds(th_case *tc)
{
    const wl_case *c = tc->param;
    const uint32_t universe = 10007, fanout = 5;
    clirr_error err;
    clirr_worklist wl;
    memset(&wl, 0, sizeof wl);
    cl_program prog = NULL;
    cl_kernel k = NULL;
    uint32_t *cur = NULL, *got = NULL;
    bool *seen = NULL;
    TH_OK(tc, clirr_program_build_source(tc->ctx, "worklist-test.cl", kernel_src,
                                         clirr_worklist_push_option(c->mode), &prog, &err));
    TH_OK(tc, clirr_kernel_create(tc->ctx, prog, "fan", &k, &err));
    cl_uint nargs = 0;
    TH_OK(tc, clirr_kernel_num_args(tc->ctx, k, &nargs, &err));
    TH_REQUIRE(tc, nargs == CLIRR_KNARGS(fan_args), "fan takes %u arguments", nargs);
    TH_OK(tc, clirr_worklist_init(&wl, tc->ctx, universe, c->capacity, c->mode, &err));
    TH_OK(tc, clirr_arg(k, CLIRR_KARG(fan_args, universe), sizeof universe, &universe, &err));
    TH_OK(tc, clirr_arg(k, CLIRR_KARG(fan_args, fanout), sizeof fanout, &fanout, &err));

    cur = malloc(2 * (size_t)universe * sizeof *cur);
    got = malloc(universe * sizeof *got);
    seen = malloc(universe * sizeof *seen);
    TH_REQUIRE(tc, cur && got && seen, "out of memory");
    uint32_t ncur = 3;
    cur[0] = 1;
    cur[1] = 500;
    cur[2] = 9999;
    TH_OK(tc, clirr_worklist_reset(&wl, cur, ncur, &err));
    if (c->tiny_scratch) {
        wl.scan_slots = 4;
        wl.scan_words = 8;
        TH_OK(tc, clirr_buf_create(tc->ctx, "test scan counts", 4 * sizeof(uint32_t), &wl.scan_n, &err));
        TH_OK(tc, clirr_buf_create(tc->ctx, "test scan slots", 8 * sizeof(uint32_t), &wl.scan_items, &err));
    }
    size_t wg = clirr_wg_size(tc->ctx, k, 64);
    for (int round = 0; round < 6; round++) {
        /* The expected next set, computed on the host. */
        memset(seen, 0, universe * sizeof *seen);
        uint32_t nexp = 0;
        for (uint32_t i = 0; i < ncur; i++)
            for (uint32_t j = 0; j < fanout; j++) {
                uint32_t v = (uint32_t)(((uint64_t)cur[i] * 7u + j * 13u) % universe);
                if (!seen[v]) {
                    seen[v] = true;
                    cur[ncur + nexp] = v; /* staged after the current items */
                    nexp++;
                }
            }
        TH_OK(tc, clirr_worklist_round(&wl, k, CLIRR_KARG(fan_args, wl_in), wg, &err));
        uint32_t ngot = clirr_worklist_size(&wl);
        TH_REQUIRE(tc, ngot == nexp, "round %d: %u items, expected %u", round, ngot, nexp);
        TH_OK(tc, clirr_buf_read(tc->ctx, wl.items[wl.cur], 0, ngot * sizeof *got, got, &err));
        memmove(cur, cur + ncur, nexp * sizeof *cur);
        ncur = nexp;
        qsort(got, ngot, sizeof *got, cmp_u32);
        uint32_t *want = malloc((ncur ? ncur : 1) * sizeof *want);
        TH_REQUIRE(tc, want, "out of memory");
        memcpy(want, cur, ncur * sizeof *want);
        qsort(want, ncur, sizeof *want, cmp_u32);
        for (uint32_t i = 0; i < ngot; i++)
            if (got[i] != want[i]) {
                uint32_t g = got[i], w = want[i];
                free(want);
                TH_REQUIRE(tc, false, "round %d: item %u is %u, expected %u", round, i, g, w);
            }
        free(want);
    }
    if (c->mode == CLIRR_PUSH_SCAN) {
        /* Counted pushes from the first (4 slots' worth of 3 items) round, spilled ones in the
         * tiny scratch's rounds, and a scratch that widened for the rounds after. */
        TH_EXPECT(tc, wl.scan_pushes > 0, "no push went through the prefix sum");
        if (c->tiny_scratch)
            TH_EXPECT(tc, wl.scan_spills > 0 && wl.scan_slots > 4 && wl.scan_words > 8,
                      "tiny scratch: %llu spills, widened to %u counts and %zu slots",
                      (unsigned long long)wl.scan_spills, wl.scan_slots, wl.scan_words);
    }
    /* The placements (compact, scan) grow without a rerun unless a scan
     * round spills past the capacity. */
    bool places = c->mode == CLIRR_PUSH_COMPACT || (c->mode == CLIRR_PUSH_SCAN && !c->tiny_scratch);
    if (c->capacity && c->capacity < 10)
        TH_EXPECT(tc, wl.grows > 0 && (places || wl.reruns > 0),
                  "small capacity %zu never grew (grows %u, reruns %u)", c->capacity, wl.grows, wl.reruns);
    else
        TH_EXPECT(tc, wl.grows == 0 && wl.reruns == 0, "default capacity grew");
done:
    clirr_kernel_release(&k);
    if (prog)
        clReleaseProgram(prog);
    clirr_worklist_release(&wl);
    free(cur);
    free(got);
    free(seen);
}

/* On a fresh context, rounds (with growth, reruns and SCAN placement)
 * build nothing once the round kernel exists and the worklist is set up:
 * clirr_worklist_init creates the primitives' kernels itself. */
static void prepared(th_case *tc)
{
    const uint32_t universe = 5003, fanout = 4;
    clirr_error err;
    clirr_ctx *ctx = NULL;
    clirr_worklist wl;
    memset(&wl, 0, sizeof wl);
    cl_program prog = NULL;
    cl_kernel k = NULL;
    clirr_timing *t = calloc(1, sizeof *t);
    TH_REQUIRE(tc, t, "out of memory");
    TH_OK(tc, clirr_ctx_create(tc->device, &ctx, &err));
    for (clirr_push_mode mode = CLIRR_PUSH_ATOMIC; mode < CLIRR_PUSH_AUTO; mode++) {
        TH_OK(tc, clirr_program_build_source(ctx, "worklist-test.cl", kernel_src,
                                             clirr_worklist_push_option(mode), &prog, &err));
        TH_OK(tc, clirr_kernel_get_checked(ctx, prog, "fan", CLIRR_KNARGS(fan_args), &k, &err));
        clReleaseProgram(prog); /* the context's kernel keeps it */
        prog = NULL;
        TH_OK(tc, clirr_worklist_init(&wl, ctx, universe, 2, mode, &err));
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(fan_args, universe), sizeof universe, &universe, &err));
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(fan_args, fanout), sizeof fanout, &fanout, &err));
        size_t wg = clirr_wg_size(ctx, k, 64);

        clirr_ctx_timing_reset(ctx);
        TH_OK(tc, clirr_worklist_reset(&wl, NULL, 3, &err));
        for (int round = 0; round < 4; round++)
            TH_OK(tc, clirr_worklist_round(&wl, k, CLIRR_KARG(fan_args, wl_in), wg, &err));
        TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
        TH_EXPECT(tc, wl.grows > 0, "%s: capacity 2 never grew", clirr_push_mode_name(mode));
        TH_EXPECT(tc, t->build_ns == 0, "%s: %llu ns of builds in rounds", clirr_push_mode_name(mode),
                  (unsigned long long)t->build_ns);
        /* One argument too far: the worklist's parameters do not fit. */
        int rc = clirr_worklist_bind(&wl, k, CLIRR_KARG(fan_args, wl_in) + 1, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "fan"), "misplaced bind: rc %d '%s'", rc,
                  err.msg);
        clirr_worklist_release(&wl);
    }
done:
    clirr_worklist_release(&wl);
    if (prog)
        clReleaseProgram(prog);
    clirr_ctx_release(ctx);
    free(t);
}

#define CASE(name, mode, cap, tiny)                                                  \
    do {                                                                       \
        static const wl_case c_ = {mode, cap, tiny};                                 \
        th_add_device(name, rounds, &c_);                                      \
    } while (0)

TH_REGISTER(register_worklist_tests)
{
    CASE("worklist/atomic", CLIRR_PUSH_ATOMIC, 0, false);
    CASE("worklist/chunk", CLIRR_PUSH_CHUNK, 0, false);
    CASE("worklist/compact", CLIRR_PUSH_COMPACT, 0, false);
    CASE("worklist/atomic/overflow", CLIRR_PUSH_ATOMIC, 2, false);
    CASE("worklist/chunk/overflow", CLIRR_PUSH_CHUNK, 2, false);
    CASE("worklist/compact/overflow", CLIRR_PUSH_COMPACT, 2, false);
    CASE("worklist/scan", CLIRR_PUSH_SCAN, 0, false);
    CASE("worklist/scan/overflow", CLIRR_PUSH_SCAN, 2, false);
    CASE("worklist/scan/spill", CLIRR_PUSH_SCAN, 0, true);
    CASE("worklist/scan/spill/overflow", CLIRR_PUSH_SCAN, 2, true);
    th_add_device("worklist/prepared", prepared, NULL);
}
