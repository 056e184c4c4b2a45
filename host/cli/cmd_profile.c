/* host/cli/cmd_profile.c - `clirr profile`: the experiment driver of run
 * (same inputs, devices, variants, templates and parameters) on contexts
 * whose kernels record their branches and memory accesses; each case ends
 * with the control-flow and memory-access irregularity of every kernel
 * (include/clirr/irregularity.h), still verified against the reference. */
#include "experiment.h"

#include <string.h>

int cmd_profile(int argc, char **argv)
{
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
