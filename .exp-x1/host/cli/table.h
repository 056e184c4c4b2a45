/* host/cli/table.h - the text table of an experiment (table.c). */
#ifndef CLIRR_CLI_TABLE_H
#define CLIRR_CLI_TABLE_H

#include "experiment.h"

void table_devices(const exp_config *cfg, const clirr_device *devs, const size_t *picked, size_t ndev);
void table_input(const exp_config *cfg, size_t input);
void table_row(const exp_config *cfg, const exp_row *row);
/* bench: ratios within the run (nothing for run). */
void table_summaries(const exp_config *cfg, const exp_row *rows, size_t n);

#endif
