/* host/base/version.c - the library's version, for programs that run
 * against a libclirr other than the one whose headers they saw. */
#include "clirr/version.h"

const char *clirr_version(void) { return CLIRR_VERSION_STRING; }
