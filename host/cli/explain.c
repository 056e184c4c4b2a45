/* host/cli/explain.c - `--explain`: the plan a case runs, and why each
 * choice was made. */
#include "experiment.h"

void exp_explain(FILE *f, const exp_config *cfg, const exp_row *r)
{
    const clirr_plan *p = &r->plan;
    const clirr_algo *a = r->algo;
    fprintf(f, "plan: %s on [%u] %s, input %s\n", a->name, r->device->index, r->device->caps.name,
            exp_input_name(cfg, r->input));
    fprintf(f, "  study     %s\n", a->study);
    fprintf(f, "  variant   %s (%s)\n", clirr_plan_variant_name(p), p->variant_reason);
    if (a->sources == CLIRR_SOURCES_ONE)
        fprintf(f, "  source    %u\n", r->source);
    else if (a->sources == CLIRR_SOURCES_MANY && p->source.rule == CLIRR_SOURCE_VERTEX)
        fprintf(f, "  sources   vertex %u\n", p->source.vertex);
    else if (a->sources == CLIRR_SOURCES_MANY)
        fprintf(f, "  sources   %s, %u %s\n", clirr_source_rule_name(p->source.rule), p->source.count,
                p->source.count ? "of them" : "(every vertex)");
    if (clirr_plan_uses_worklist(p)) {
        fprintf(f, "  push      %s: %s\n", clirr_push_mode_name(p->push), p->push_reason);
        if (p->wl_capacity)
            fprintf(f, "  worklist  initial capacity %zu (--wl-capacity); grows and reruns the round on "
                       "overflow\n", p->wl_capacity);
        else
            fprintf(f, "  worklist  capacity = items: pushes are deduplicated per round, so it cannot "
                       "overflow\n");
        fprintf(f, "  local     %u items (%s)\n", p->local_rounds, p->local_rounds_reason);
        fprintf(f, "  queued    %u rounds (%s)\n", p->queue_rounds, p->queue_rounds_reason);
        fprintf(f, "  grid      %u work-items (%s)\n", p->fixed_grid, p->grid_reason);
    }
    fprintf(f, "  template  %s (%s)\n", clirr_template_name(p->tmpl), p->template_reason);
    fprintf(f, "  layout    %s (%s)\n", clirr_reorder_name(p->reorder), p->reorder_reason);
    fprintf(f, "  lb_THRES  %u (%s)\n", p->lb_thres, p->lb_thres_reason);
    fprintf(f, "  wg size   %s; block-mapped %u; coarsen %u\n", p->wg_reason, p->group_wg, p->coarsen);
    for (unsigned i = 0; i < a->nparams; i++) {
        char text[512];
        clirr_param_text(a, i, &p->params, text, sizeof text);
        fprintf(f, "  --%-8s %s (%s)\n", a->params[i].name, *text ? text : "none", a->params[i].help);
    }
    fprintf(f, "  build     %s\n", p->build_options);
}
