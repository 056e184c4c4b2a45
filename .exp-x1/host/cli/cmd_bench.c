/* host/cli/cmd_bench.c - `clirr bench`: the experiment driver with
 * bench's defaults (every device, algorithm and variant, 5 trials after a
 * warm-up, the wide table and the ratios of the run). */
#include "experiment.h"

#include <string.h>

int cmd_bench(int argc, char **argv)
{
    exp_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.command = "bench";
    cfg.bench = true;
    int code = exp_parse(&cfg, argc, argv);
    if (code == 0)
        code = exp_run(&cfg);
    exp_config_free(&cfg);
    return code < 0 ? 0 : code;
}
