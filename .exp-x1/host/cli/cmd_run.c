/* host/cli/cmd_run.c - `clirr run`: the experiment driver with run's
 * defaults (one device, one trial, the algorithm's default variant, a
 * 100-column table). */
#include "experiment.h"

#include <string.h>

int cmd_run(int argc, char **argv)
{
    exp_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.command = "run";
    int code = exp_parse(&cfg, argc, argv);
    if (code == 0)
        code = exp_run(&cfg);
    exp_config_free(&cfg);
    return code < 0 ? 0 : code;
}
