/* strobe-demangle.h — C++ symbol names as people write them, with the toolchain's own
 * demangler (libstdc++'s __cxa_demangle, the one c++filt and gdb agree with).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @name demangled (a new string), or NULL when it is not a mangled C++ name (then it is
 * shown as it is). */
char *strobe_demangle (const char *name);

G_END_DECLS
