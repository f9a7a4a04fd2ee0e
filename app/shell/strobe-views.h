/* strobe-views.h — the list of views every trace tab shows.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Registers each view type with strobe_view_register(); once, at start-up. */
void strobe_views_register_all (void);

G_END_DECLS
