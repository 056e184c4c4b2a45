/* clirr/export.h - CLIRR_API marks what libclirr exports; the library is
 * built with -fvisibility=hidden, so everything else stays internal. */
#ifndef CLIRR_EXPORT_H
#define CLIRR_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define CLIRR_API __attribute__((visibility("default")))
#else
#define CLIRR_API
#endif

#endif
