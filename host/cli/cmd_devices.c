/* host/cli/cmd_devices.c - `clirr devices`: every platform and device, what
 * the capability probe found, and which templates each device can run. */
#include "cli.h"


#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void print_help(void)
{
    printf("usage: clirr devices [--json] [--device SEL]\n"
           "\n"
           "Lists every OpenCL device (all platforms) with its capabilities and the\n"
           "templates it can run.\n"
           "  --json        one JSON object: {\"devices\": [...]}\n"
           "  --device SEL  only the selected devices (index, name substring, cpu, gpu,\n"
           "                all; default all)\n");
}

/* What --template auto picks for a graph algorithm on a small or a large
 * graph by the device's profiles and rules: the plan of the first
 * registered algorithm without a profile of its own, on an input of that
 * size (planning reads only the input's kind and size). */
static void auto_pick(const clirr_caps *c, bool big, clirr_template *t, uint32_t *thres, const char **why)
{
    clirr_graph shape = {.n = big ? UINT32_MAX - 1 : 1000};
    clirr_input *in = NULL;
    clirr_error err;
    const clirr_algo *a = clirr_algo_at(0);
    for (size_t i = 0; a && a->template_hint; i++)
        a = clirr_algo_at(i + 1);
    clirr_intent it;
    clirr_plan plan;
    *t = CLIRR_TEMPLATE_BASELINE;
    *thres = 0;
    *why = "(no plan)";
    if (!a)
        return;
    clirr_intent_default(a, &it);
    if (clirr_input_from_graph(&shape, false, "shape", &in, &err) == CLIRR_OK &&
        clirr_plan_make(a, c, &it, in, &plan, &err) == CLIRR_OK) {
        *t = plan.tmpl;
        *thres = plan.lb_thres;
        *why = plan.template_reason;
    }
    clirr_input_free(in);
}

static const char *yesno(bool b) { return b ? "yes" : "no"; }

static void bytes_text(uint64_t b, char *buf, size_t size)
{
    if (b >= (1ull << 30))
        snprintf(buf, size, "%.1f GiB", (double)b / (1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(buf, size, "%.1f MiB", (double)b / (1ull << 20));
    else
        snprintf(buf, size, "%llu KiB", (unsigned long long)(b >> 10));
}

static void print_text(const clirr_device *d)
{
    const clirr_caps *c = &d->caps;
    char g[32], a[32], l[32];
    bytes_text(c->global_mem, g, sizeof g);
    bytes_text(c->max_alloc, a, sizeof a);
    bytes_text(c->local_mem, l, sizeof l);
    printf("[%u] %s\n", d->index, c->name);
    printf("    platform   %s (%s)\n", c->platform, c->platform_version);
    printf("    type       %s, vendor %s, driver %s\n", clirr_caps_type_name(c), c->vendor, c->driver);
    printf("    OpenCL     %d.%d, OpenCL C %d.%d\n", c->cl_major, c->cl_minor, c->c_major, c->c_minor);
    printf("    compute    %u units, max work-group %zu, SIMD width %u (%s)\n", c->compute_units,
           c->max_wg_size, c->simd_width, c->simd_width_source);
    printf("    memory     global %s, max buffer %s, local %s%s, cache line %u bytes,\n"
           "               %s\n", g, a, l,
           c->local_mem_dedicated ? "" : " (emulated in global memory)", c->cacheline,
           c->host_unified ? "the host's memory" : "its own memory (large uploads staged through pinned memory)");
    printf("    features   device-enqueue %s, work-group collectives %s, subgroups %s,\n"
           "               generic address space %s, int64 atomics %s, fp64 %s,\n"
           "               correctly rounded float division %s\n",
           yesno(c->device_enqueue), yesno(c->wg_collectives), yesno(c->subgroups),
           yesno(c->generic_address_space), yesno(c->int64_atomics), yesno(c->fp64),
           yesno(c->fp32_exact_divide));
    printf("    templates ");
    for (int t = 0; t < CLIRR_TEMPLATE_COUNT_; t++)
        if (clirr_template_runnable(c, (clirr_template)t, NULL))
            printf(" %s", clirr_template_name((clirr_template)t));
    for (int t = 0; t < CLIRR_TEMPLATE_COUNT_; t++) {
        const char *why = NULL;
        if (!clirr_template_runnable(c, (clirr_template)t, &why))
            printf("; not %s (%s)", clirr_template_name((clirr_template)t), why);
    }
    printf("\n");
    /* What --template auto picks, for a small and a large graph. */
    for (int big = 0; big < 2; big++) {
        clirr_template t;
        uint32_t thres;
        const char *why;
        auto_pick(c, big, &t, &thres, &why);
        printf("    auto %s %s, lb_THRES %u: %s\n", big ? "(large)" : "(small)", clirr_template_name(t),
               thres, why);
    }
}

static json_object *device_json(const clirr_device *d)
{
    const clirr_caps *c = &d->caps;
    json_object *o = cli_json_device(c);
    json_object_object_add(o, "index", json_object_new_int((int)d->index));
    json_object_object_add(o, "platform_version", json_object_new_string(c->platform_version));
    json_object_object_add(o, "opencl_c_version", json_object_new_string(c->c_version));
    json_object *caps = json_object_new_object();
    char v[16];
    snprintf(v, sizeof v, "%d.%d", c->cl_major, c->cl_minor);
    json_object_object_add(caps, "opencl", json_object_new_string(v));
    snprintf(v, sizeof v, "%d.%d", c->c_major, c->c_minor);
    json_object_object_add(caps, "opencl_c", json_object_new_string(v));
    json_object_object_add(caps, "device_enqueue", json_object_new_boolean(c->device_enqueue));
    json_object_object_add(caps, "queue_on_device_max_size",
                           json_object_new_int64((int64_t)c->queue_on_device_max_size));
    json_object_object_add(caps, "work_group_collectives", json_object_new_boolean(c->wg_collectives));
    json_object_object_add(caps, "subgroups", json_object_new_boolean(c->subgroups));
    json_object_object_add(caps, "generic_address_space", json_object_new_boolean(c->generic_address_space));
    json_object_object_add(caps, "int64_atomics", json_object_new_boolean(c->int64_atomics));
    json_object_object_add(caps, "int64_extended_atomics", json_object_new_boolean(c->int64_extended_atomics));
    json_object_object_add(caps, "fp64", json_object_new_boolean(c->fp64));
    json_object_object_add(caps, "fp32_exact_divide", json_object_new_boolean(c->fp32_exact_divide));
    json_object_object_add(caps, "local_mem_bytes", json_object_new_int64((int64_t)c->local_mem));
    json_object_object_add(caps, "local_mem_dedicated", json_object_new_boolean(c->local_mem_dedicated));
    json_object_object_add(caps, "global_mem_bytes", json_object_new_int64((int64_t)c->global_mem));
    json_object_object_add(caps, "max_alloc_bytes", json_object_new_int64((int64_t)c->max_alloc));
    json_object_object_add(caps, "global_mem_cacheline_bytes", json_object_new_int((int)c->cacheline));
    json_object_object_add(caps, "global_mem_cache_bytes", json_object_new_int64((int64_t)c->global_cache));
    json_object_object_add(caps, "host_unified_memory", json_object_new_boolean(c->host_unified));
    json_object_object_add(caps, "compute_units", json_object_new_int((int)c->compute_units));
    json_object_object_add(caps, "max_work_group_size", json_object_new_int64((int64_t)c->max_wg_size));
    json_object_object_add(caps, "simd_width", json_object_new_int((int)c->simd_width));
    json_object_object_add(caps, "simd_width_source", json_object_new_string(c->simd_width_source));
    json_object_object_add(o, "capabilities", caps);
    json_object *can = json_object_new_array(), *cannot = json_object_new_object();
    for (int t = 0; t < CLIRR_TEMPLATE_COUNT_; t++) {
        const char *why = NULL;
        if (clirr_template_runnable(c, (clirr_template)t, &why))
            json_object_array_add(can, json_object_new_string(clirr_template_name((clirr_template)t)));
        else
            json_object_object_add(cannot, clirr_template_name((clirr_template)t), json_object_new_string(why));
    }
    json_object_object_add(o, "templates", can);
    json_object *autos = json_object_new_object();
    for (int big = 0; big < 2; big++) {
        clirr_template t;
        uint32_t thres;
        const char *why;
        auto_pick(c, big, &t, &thres, &why);
        json_object *a = json_object_new_object();
        json_object_object_add(a, "template", json_object_new_string(clirr_template_name(t)));
        json_object_object_add(a, "lb_thres", json_object_new_int64(thres));
        json_object_object_add(a, "reason", json_object_new_string(why));
        json_object_object_add(autos, big ? "large_graph" : "small_graph", a);
    }
    json_object_object_add(o, "template_auto", autos);
    json_object_object_add(o, "templates_unavailable", cannot);
    return o;
}

int cmd_devices(int argc, char **argv)
{
    bool json = false;
    const char *selector = "all";
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"device", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hd:", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 'd': selector = optarg; break;
        case 'h': print_help(); return 0;
        default: return cli_usage_error("devices", "unknown option");
        }
    }
    if (optind < argc)
        return cli_usage_error("devices", "unexpected argument '%s'", argv[optind]);

    clirr_error err;
    clirr_error_clear(&err);
    clirr_device *devs = NULL;
    size_t *picked = NULL, npicked = 0;
    int rc = cli_devices_pick(selector, &devs, &picked, &npicked, &err);
    if (rc != CLIRR_OK) {
        free(devs);
        free(picked);
        return cli_report(&err);
    }
    if (json) {
        json_object *root = json_object_new_object(), *arr = json_object_new_array();
        for (size_t i = 0; i < npicked; i++)
            json_object_array_add(arr, device_json(&devs[picked[i]]));
        json_object_object_add(root, "devices", arr);
        cli_json_print(stdout, root);
        json_object_put(root);
    } else {
        for (size_t i = 0; i < npicked; i++)
            print_text(&devs[picked[i]]);
    }
    free(devs);
    free(picked);
    return 0;
}
