/* strobe-change-log.h — where a series of the timeline model last changed: the earliest
 * time each recent change touched, by the model generation it left. Private to
 * core/models.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where a series changed, per generation, for views that redraw only that: a few marks,
 * the oldest merged into the next when full (so an answer may be earlier than needed,
 * never later). */
#define STROBE_CHANGE_MARKS 8

typedef struct
{
  guint64 generation;       /* the model's generation once the change was made */
  guint64 from;             /* the earliest time it touched */
} StrobeChangeMark;

typedef struct
{
  StrobeChangeMark marks[STROBE_CHANGE_MARKS];
  guint            n;
} StrobeChangeLog;

/* A change that leaves the model at @generation and touched times from @from on. */
void    strobe_change_log_note  (StrobeChangeLog *log, guint64 generation, guint64 from);
/* The earliest time touched by changes after generation @since (G_MAXUINT64: none kept). */
guint64 strobe_change_log_query (const StrobeChangeLog *log, guint64 since);

G_END_DECLS
