/* strobe-window-private.h — shared between the window and its actions.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-window.h"

G_BEGIN_DECLS

void _strobe_window_actions_init (StrobeWindow *self);

G_END_DECLS
