/* host/cli/profile_out.c - what `clirr profile` prints and writes: per case,
 * the irregularity of every instrumented kernel and of all together (the
 * table under the case's row, one CSV row per kernel, a JSON object), and
 * which launched kernels carry no instrumentation. The metric names say
 * what is divided by what (include/clirr/irregularity.h): CFI_b and MAI_m
 * are not the study's CFI and MAI. */
#include "experiment.h"

#include <string.h>

void prof_help(void)
{
    printf("\nprofile (a SIMT model over per-work-item records; instrumented builds):\n"
           "  --simd-width W      lanes of one SIMD group (default: the probed width)\n"
           "  --segment S         bytes of a coalescing segment (default: the device's\n"
           "                      global-memory cache line; 64 when it reports none)\n"
           "  --banks B           local-memory banks of 4-byte words (default 32)\n"
           "  --irr-records N     record buffer capacity per launch, fixed (24 bytes a\n"
           "                      record); an overflow fails the case, never truncates it\n"
           "                      silently. Default: 4M records, grown to what a launch\n"
           "                      wanted (the trials then run again) while the device\n"
           "                      has room\n"
           "  --irr-sample K      record only work-groups whose id is a multiple of K\n"
           "  --irr-backend B     model (default, every device) or warp: NVIDIA GPUs of\n"
           "                      compute capability 8.0+ count each instance as the\n"
           "                      hardware warp executed it (inline PTX vote/match), W = 32\n"
           "Per kernel: CFI_b = divergent / executed branches (W-wide groups), MAI_m =\n"
           "replays / (memory instructions + replays), a global access replaying once per\n"
           "extra S-byte segment, a local one once per extra word in its busiest bank;\n"
           "SIMD utilisation = active lanes / (instances x W); gld/gst efficiency =\n"
           "bytes asked / bytes of the touched segments. The denominators are the\n"
           "instrumented branches and accesses, not every instruction as in the study\n"
           "(shared/papers/002). --csv writes one row per kernel. Device-side enqueue\n"
           "is off in profiling contexts.\n");
}

/* A percentage, or "-" where nothing was counted. */
static const char *pct(char *buf, double x, bool any)
{
    if (!any)
        return "-";
    snprintf(buf, 16, "%.1f%%", 100 * x);
    return buf;
}

static void line(const char *name, const clirr_irr_kernel *k)
{
    char a[16], b[16], c[16], d[16], e[16];
    printf("    %-34.34s %7llu %10llu %9llu %7s %10llu %7s %7s %7s %7s\n", name,
           (unsigned long long)k->launches, (unsigned long long)k->records,
           (unsigned long long)k->branches, pct(a, clirr_irr_cfi(k), k->branches),
           (unsigned long long)(k->gmem + k->lmem), pct(b, clirr_irr_mai(k), k->gmem + k->lmem),
           pct(c, clirr_irr_simd_util(k), k->lane_slots), pct(d, clirr_irr_gld_eff(k), k->gld),
           pct(e, clirr_irr_gst_eff(k), k->gst));
}

void prof_report_table(const clirr_irr_report *p)
{
    printf("    irregularity (backend %s: W = %u lanes, S = %u-byte segments, B = %u banks%s)\n",
           p->backend, p->simd_width, p->segment, p->banks, p->sample > 1 ? ", sampled" : "");
    if (p->notes[0])
        printf("    note: %s\n", p->notes);
    printf("    %-34s %7s %10s %9s %7s %10s %7s %7s %7s %7s\n", "kernel", "launch", "records",
           "branches", "CFI_b", "mem-inst", "MAI_m", "SIMD", "gld-eff", "gst-eff");
    char others[512] = "";
    for (size_t i = 0; i < p->nkernels; i++) {
        const clirr_irr_kernel *k = &p->kernels[i];
        if (k->instrumented)
            line(k->name, k);
        else
            snprintf(others + strlen(others), sizeof others - strlen(others), "%s%s (%llu)",
                     others[0] ? ", " : "", k->name, (unsigned long long)k->launches);
    }
    clirr_irr_kernel all;
    clirr_irr_total(p, &all);
    line("all instrumented", &all);
    if (others[0])
        printf("    not instrumented (launches): %s\n", others);
    if (p->backend && !strcmp(p->backend, "warp"))
        printf("    recording: counted on the device per site, %.1f MB of counters read in %.3f s, "
               "%.3f s waiting for launches\n",
               p->read_bytes / 1e6, p->read_s, p->wait_s);
    else
        printf("    recording: largest launch %llu records (buffer %llu), %.1f MB read in %.3f s, "
               "folded in %.3f s (%u threads), %.3f s waiting for launches\n",
               (unsigned long long)p->largest_launch, (unsigned long long)p->capacity,
               p->read_bytes / 1e6, p->read_s, p->fold_s, p->fold_threads, p->wait_s);
    fflush(stdout);
}

void prof_table(const exp_config *cfg, const exp_row *r)
{
    (void)cfg;
    if (r->irr_taken)
        prof_report_table(&r->irr);
}

void prof_csv_header(FILE *f)
{
    fputs("case,device,platform,input,algorithm,variant,push,template,lb_thres,kernel,backend,"
          "simd_width,segment,banks,sample,launches,records,dropped,branches,divergent,cfi_b,"
          "gmem,gmem_replays,lmem,lmem_replays,mai_m,simd_util,gld,gld_eff,gst,gst_eff,"
          "verified,status\n", f);
}

void prof_csv_line(FILE *f, const prof_case *c, const clirr_irr_report *p, const clirr_irr_kernel *k)
{
    fprintf(f, "%zu,", c->index);
    exp_csv_field(f, c->caps->name);
    fputc(',', f);
    exp_csv_field(f, c->caps->platform);
    fputc(',', f);
    exp_csv_field(f, c->input);
    fprintf(f, ",%s,%s,%s,%s,%u,%s,%s,%u,%u,%u,%u,", c->algo, c->variant, c->push, c->tmpl,
            c->lb_thres, k->name, p->backend ? p->backend : "model", p->simd_width, p->segment,
            p->banks, p->sample);
    fprintf(f, "%llu,%llu,%llu,%llu,%llu,%.6f,%llu,%llu,%llu,%llu,%.6f,%.6f,%llu,%.6f,%llu,%.6f,",
            (unsigned long long)k->launches, (unsigned long long)k->records,
            (unsigned long long)k->dropped, (unsigned long long)k->branches,
            (unsigned long long)k->divergent, clirr_irr_cfi(k), (unsigned long long)k->gmem,
            (unsigned long long)k->gmem_replays, (unsigned long long)k->lmem,
            (unsigned long long)k->lmem_replays, clirr_irr_mai(k), clirr_irr_simd_util(k),
            (unsigned long long)k->gld, clirr_irr_gld_eff(k), (unsigned long long)k->gst,
            clirr_irr_gst_eff(k));
    fprintf(f, "%s,", c->verified < 0 ? "" : c->verified ? "true" : "false");
    exp_csv_field(f, c->status);
    fputc('\n', f);
}

static void csv_kernel(FILE *f, const exp_config *cfg, const exp_row *r, const clirr_irr_kernel *k)
{
    char t[64];
    exp_template_text(r, t, sizeof t);
    prof_case c = {r->index, &r->device->caps, exp_input_name(cfg, r->input), r->algo->name,
                   r->planned ? clirr_plan_variant_name(&r->plan) : "-", exp_push_text(r), t,
                   r->planned ? r->plan.lb_thres : 0, r->verified,
                   r->status == CLIRR_OK ? "ok" : r->error};
    prof_csv_line(f, &c, &r->irr, k);
}

void prof_csv_row(FILE *f, const exp_config *cfg, const exp_row *r)
{
    if (r->irr_taken) {
        for (size_t i = 0; i < r->irr.nkernels; i++)
            if (r->irr.kernels[i].instrumented)
                csv_kernel(f, cfg, r, &r->irr.kernels[i]);
        clirr_irr_kernel all;
        clirr_irr_total(&r->irr, &all);
        csv_kernel(f, cfg, r, &all);
    } else {
        /* A case that failed before counting: its error, no counts. */
        clirr_irr_kernel none;
        memset(&none, 0, sizeof none);
        snprintf(none.name, sizeof none.name, "-");
        csv_kernel(f, cfg, r, &none);
    }
    fflush(f);
}

static json_object *jkernel(const clirr_irr_kernel *k)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(k->name));
    json_object_object_add(o, "instrumented", json_object_new_boolean(k->instrumented));
#define JU(field) json_object_object_add(o, #field, json_object_new_int64((int64_t)k->field))
    JU(launches);
    JU(records);
    JU(dropped);
    JU(branches);
    JU(divergent);
    JU(gmem);
    JU(gmem_replays);
    JU(lmem);
    JU(lmem_replays);
    JU(gld);
    JU(gld_requested);
    JU(gld_moved);
    JU(gst);
    JU(gst_requested);
    JU(gst_moved);
    JU(lanes);
    JU(lane_slots);
#undef JU
    json_object_object_add(o, "cfi_b", json_object_new_double(clirr_irr_cfi(k)));
    json_object_object_add(o, "mai_m", json_object_new_double(clirr_irr_mai(k)));
    json_object_object_add(o, "simd_util", json_object_new_double(clirr_irr_simd_util(k)));
    json_object_object_add(o, "gld_eff", json_object_new_double(clirr_irr_gld_eff(k)));
    json_object_object_add(o, "gst_eff", json_object_new_double(clirr_irr_gst_eff(k)));
    return o;
}

json_object *prof_json(const exp_row *r)
{
    const clirr_irr_report *p = &r->irr;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "backend", json_object_new_string(p->backend ? p->backend : "model"));
    json_object_object_add(o, "simd_width", json_object_new_int((int)p->simd_width));
    json_object_object_add(o, "segment_bytes", json_object_new_int((int)p->segment));
    json_object_object_add(o, "banks", json_object_new_int((int)p->banks));
    json_object_object_add(o, "sample", json_object_new_int((int)p->sample));
    if (p->notes[0])
        json_object_object_add(o, "note", json_object_new_string(p->notes));
    json_object *cost = json_object_new_object();
    json_object_object_add(cost, "largest_launch", json_object_new_int64((int64_t)p->largest_launch));
    json_object_object_add(cost, "capacity", json_object_new_int64((int64_t)p->capacity));
    json_object_object_add(cost, "read_bytes", json_object_new_int64((int64_t)p->read_bytes));
    json_object_object_add(cost, "read_s", json_object_new_double(p->read_s));
    json_object_object_add(cost, "fold_s", json_object_new_double(p->fold_s));
    json_object_object_add(cost, "fold_threads", json_object_new_int((int)p->fold_threads));
    json_object_object_add(cost, "wait_s", json_object_new_double(p->wait_s));
    json_object_object_add(o, "recording", cost);
    json_object *ks = json_object_new_array();
    for (size_t i = 0; i < p->nkernels; i++)
        json_object_array_add(ks, jkernel(&p->kernels[i]));
    json_object_object_add(o, "kernels", ks);
    clirr_irr_kernel all;
    clirr_irr_total(p, &all);
    json_object_object_add(o, "all", jkernel(&all));
    return o;
}
