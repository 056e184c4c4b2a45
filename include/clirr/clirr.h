/* clirr/clirr.h - everything public: include this one header. */
#ifndef CLIRR_CLIRR_H
#define CLIRR_CLIRR_H

#include "clirr/version.h"
#include "clirr/file.h"
#include "clirr/status.h"
#include "clirr/device.h"
#include "clirr/irregularity.h"
#include "clirr/calib.h"
#include "clirr/graph.h"
#include "clirr/list.h"
#include "clirr/tree.h"
#include "clirr/bodies.h"
#include "clirr/cnf.h"
#include "clirr/mesh.h"
#include "clirr/worklist.h"
#include "clirr/templates.h"
#include "clirr/trace.h"
#include "clirr/algo.h"

#endif
