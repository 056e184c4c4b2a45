/* host/cli/cmd_profile.c - `clirr profile`: the experiment driver of run
 * (same inputs, devices, variants, templates and parameters) on contexts
 * whose kernels record their branches and memory accesses; each case ends
 * with the control-flow and memory-access irregularity of every kernel
 * (include/clirr/irregularity.h), still verified against the reference.
 * `clirr profile --calib K[,K]` runs the regular calibration kernels
 * (include/clirr/calib.h) the same way instead. */
#include "experiment.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void calib_help(void)
{
    printf("usage: clirr profile --calib NAME[,NAME]|all [--device SEL] [--csv FILE]\n"
           "       [--simd-width W] [--segment S] [--banks B] [--irr-records N] [--irr-sample K]\n"
           "       [--irr-backend model|warp]\n\n"
           "Runs regular calibration kernels, each checked against its CPU reference,\n"
           "with the irregularity model of 'clirr profile ALGO' (see its --help):\n");
    for (size_t i = 0; i < clirr_calib_count(); i++)
        printf("  %-13s %s\n", clirr_calib_name(i), clirr_calib_summary(i));
}

/* One calibration kernel on one device: a table block and CSV rows. */
static int calib_case(clirr_ctx *ctx, const clirr_device *dev, size_t k, size_t index, FILE *csv)
{
    clirr_error err;
    clirr_error_clear(&err);
    clirr_calib_result r;
    clirr_irr_report rep;
    int rc = clirr_ctx_irr_take(ctx, &rep, &err);
    if (rc == CLIRR_OK)
        rc = clirr_calib_run(ctx, k, &r, &err);
    if (rc == CLIRR_OK)
        rc = clirr_ctx_irr_take(ctx, &rep, &err);
    const char *name = clirr_calib_name(k);
    char status[CLIRR_MSG_MAX];
    snprintf(status, sizeof status, "%s", rc == CLIRR_OK ? "ok" : err.msg);
    clirr_irr_kernel all;
    if (rc == CLIRR_OK) {
        clirr_irr_total(&rep, &all);
        if (all.dropped) {
            snprintf(status, sizeof status,
                     "%s: the record buffer overflowed, %llu records lost: raise --irr-records or "
                     "use --irr-sample K", name, (unsigned long long)all.dropped);
            rc = CLIRR_ERR_TOO_LARGE;
        } else if (!r.verified) {
            snprintf(status, sizeof status, "verification FAILED: %s", r.report);
        }
    }
    printf("%3u calib:%-12s %-22s %10.3f ms  %s\n", dev->index, name, rc == CLIRR_OK ? r.size : "-",
           rc == CLIRR_OK ? r.kernel_ms : 0.0,
           rc != CLIRR_OK ? "error" : r.verified ? "verified" : "NOT verified");
    if (rc == CLIRR_OK || rc == CLIRR_ERR_TOO_LARGE)
        prof_report_table(&rep);
    char algo[48];
    snprintf(algo, sizeof algo, "calib:%s", name);
    prof_case c = {index, &dev->caps, rc == CLIRR_OK ? r.size : "-", algo, "-", "-", "-", 0,
                   rc == CLIRR_OK ? r.verified : -1, status};
    if (csv && (rc == CLIRR_OK || rc == CLIRR_ERR_TOO_LARGE)) {
        for (size_t i = 0; i < rep.nkernels; i++)
            if (rep.kernels[i].instrumented)
                prof_csv_line(csv, &c, &rep, &rep.kernels[i]);
        prof_csv_line(csv, &c, &rep, &all);
    }
    if (rc != CLIRR_OK || !r.verified)
        fprintf(stderr, "clirr profile: calib %s on %s: %s\n", name, dev->caps.name, status);
    if (rc != CLIRR_OK)
        return clirr_status_exit_code(rc);
    return r.verified ? 0 : 1;
}

static int calib_main(int argc, char **argv)
{
    enum { C_CALIB = 1, C_DEVICE, C_CSV, C_SIMDW, C_SEGMENT, C_BANKS, C_RECORDS, C_SAMPLE, C_HELP, C_BACKEND };
    static const struct option opts[] = {
        {"calib", required_argument, NULL, C_CALIB},   {"device", required_argument, NULL, C_DEVICE},
        {"csv", required_argument, NULL, C_CSV},       {"simd-width", required_argument, NULL, C_SIMDW},
        {"segment", required_argument, NULL, C_SEGMENT}, {"banks", required_argument, NULL, C_BANKS},
        {"irr-records", required_argument, NULL, C_RECORDS},
        {"irr-sample", required_argument, NULL, C_SAMPLE}, {"help", no_argument, NULL, C_HELP},
        {"irr-backend", required_argument, NULL, C_BACKEND}, {NULL, 0, NULL, 0}};
    const char *names = NULL, *selector = NULL, *csv_path = NULL;
    clirr_irr_options irr = {0};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        unsigned long long v = 0;
        bool number = c >= C_SIMDW && c <= C_SAMPLE;
        if (number && !cli_parse_u64(optarg, 1, c == C_RECORDS ? UINT32_MAX - 64 : 1u << 30, &v))
            return cli_usage_error("profile", "--%s needs a positive whole number, not '%s'",
                                   opts[c - 1].name, optarg);
        switch (c) {
        case C_CALIB: names = optarg; break;
        case C_DEVICE: selector = optarg; break;
        case C_CSV: csv_path = optarg; break;
        case C_SIMDW: irr.simd_width = (uint32_t)v; break;
        case C_SEGMENT: irr.segment = (uint32_t)v; break;
        case C_BANKS: irr.banks = (uint32_t)v; break;
        case C_RECORDS: irr.records = v; break;
        case C_SAMPLE: irr.sample = (uint32_t)v; break;
        case C_BACKEND:
            if (strcmp(optarg, "model") && strcmp(optarg, "warp"))
                return cli_usage_error("profile", "--irr-backend takes model or warp, not '%s'", optarg);
            irr.backend = strcmp(optarg, "warp") ? CLIRR_IRR_MODEL : CLIRR_IRR_WARP;
            break;
        case C_HELP:
        case 'h': calib_help(); return 0;
        default: return cli_usage_error("profile", "unknown option or missing value with --calib");
        }
    }
    if (optind < argc)
        return cli_usage_error("profile", "--calib runs calibration kernels only, not '%s'", argv[optind]);
    /* Which kernels: a list of names, or all. */
    bool want[64] = {false};
    char *list = strdup(names ? names : "");
    size_t nwant = 0;
    for (char *save = NULL, *tok = list ? strtok_r(list, ",", &save) : NULL; tok;
         tok = strtok_r(NULL, ",", &save)) {
        int k = clirr_calib_find(tok);
        if (strcmp(tok, "all") && k < 0) {
            char known[256] = "";
            for (size_t i = 0; i < clirr_calib_count(); i++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                         clirr_calib_name(i));
            int code = cli_usage_error("profile", "unknown calibration kernel '%s' (known: %s, all)", tok,
                                       known);
            free(list);
            return code;
        }
        for (size_t i = 0; i < clirr_calib_count(); i++)
            if (!strcmp(tok, "all") || (int)i == k) {
                nwant += !want[i];
                want[i] = true;
            }
    }
    free(list);
    if (!nwant)
        return cli_usage_error("profile", "--calib needs kernel names or all");
    clirr_device *devs = NULL;
    size_t *picked = NULL, ndev = 0;
    clirr_error err;
    clirr_error_clear(&err);
    int code = 0;
    clirr_out_file out;
    bool csv_open = false;
    if (cli_devices_pick(selector, &devs, &picked, &ndev, &err) != CLIRR_OK) {
        code = cli_report(&err);
        goto done;
    }
    if (csv_path) {
        if (clirr_out_open(&out, csv_path, &err) != CLIRR_OK) {
            code = cli_report(&err);
            goto done;
        }
        csv_open = true;
        prof_csv_header(out.f);
    }
    size_t index = 0;
    for (size_t d = 0; d < ndev; d++) {
        const clirr_device *dev = &devs[picked[d]];
        clirr_ctx *ctx = NULL;
        int rc = clirr_ctx_create(dev, &ctx, &err);
        if (rc == CLIRR_OK)
            rc = clirr_ctx_irr_enable(ctx, &irr, &err);
        if (rc != CLIRR_OK) {
            int e = cli_report(&err);
            code = e > code ? e : code;
            clirr_ctx_release(ctx);
            continue;
        }
        printf("device %u: %s (%s)\n", dev->index, dev->caps.name, dev->caps.platform);
        for (size_t k = 0; k < clirr_calib_count(); k++)
            if (want[k]) {
                int e = calib_case(ctx, dev, k, ++index, csv_open ? out.f : NULL);
                code = e > code ? e : code;
            }
        clirr_ctx_release(ctx);
    }
    if (csv_open && clirr_out_close(&out, &err) != CLIRR_OK) {
        int e = cli_report(&err);
        code = e > code ? e : code;
    }
    csv_open = false;
done:
    if (csv_open)
        clirr_out_abandon(&out);
    free(devs);
    free(picked);
    return code;
}

int cmd_profile(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--calib") || !strncmp(argv[i], "--calib=", 8))
            return calib_main(argc, argv);
    exp_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.command = "profile";
    cfg.profile = true;
    int code = exp_parse(&cfg, argc, argv);
    if (code == 0)
        code = exp_run(&cfg);
    exp_config_free(&cfg);
    return code < 0 ? 0 : code;
}
