/* host/templates/policy.h - the decisions clirr makes from a device's
 * capabilities, in one place (templates/policy.c). */
#ifndef CLIRR_TEMPLATES_POLICY_H
#define CLIRR_TEMPLATES_POLICY_H

#include "clirr/device.h"
#include "clirr/templates.h"
#include "clirr/worklist.h"

/* The push mode for a data-driven round under --push auto, from the
 * round's input size: a prefix-sum placement costs a pass over all
 * `universe` marks, so it pays off only when the round is large; smaller
 * rounds push with atomics (GPUs) or per-work-item chunks (CPUs, where
 * contended atomics cost most). */
clirr_push_mode clirr_policy_push(const clirr_caps *caps, uint32_t size, uint32_t universe);
/* The largest round clirr_policy_push gives an atomic push (not the scan). */
uint32_t clirr_policy_push_small(uint32_t universe);

/* Items in a work-group's local queue under --push hier: a quarter of
 * the device's local memory, at most 2048 (0: no local memory). */
uint32_t clirr_policy_hier_capacity(const clirr_caps *caps);

/* Why clirr_policy_push decides as it does, for --explain. */
const char *clirr_policy_push_reason(const clirr_caps *caps);

/* The recursion template (flat, rec-naive, rec-hier) of a recursion
 * variant when the user leaves it to clirr, and why. */
void clirr_policy_recursion_template(const clirr_caps *caps, clirr_template *tmpl, const char **reason);

/* The nested-loop template and lb_thres on a device for n items when the
 * user leaves them to clirr (--template auto): the algorithm's measured
 * profile (hint, may be NULL), a device's measured profile or a rule on
 * the capabilities and the size, never a template the device cannot run.
 * *reason says why, for --explain and the JSON. */
void clirr_policy_template(const clirr_caps *caps, const clirr_template_hint *hint, uint32_t n,
                           clirr_template *tmpl, uint32_t *lb_thres, const char **reason);

#endif
