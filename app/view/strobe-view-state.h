/* strobe-view-state.h — what the views of one trace follow from each other: the visible
 * time range, the selected range, the cursor and the hovered time, the log message another
 * view asked the log view to show, and whether a live trace is followed. Views bind to its properties, so a
 * drag-selection in one view filters the others. What only one view selects (a row of
 * its own: a scope, an allocation, a counter) is that view's property, not the state's.
 *
 * All times are trace clock ticks (StrobeTraceClock converts them).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define STROBE_VIEW_STATE_NONE G_MAXUINT64   /* no cursor, hover or message; also "no row" for views */

/* A scope, as the timeline model stores it (thread, depth, begin, end, name): what the
 * timeline selects and the timers panel asks it to show. */
typedef struct
{
  guint16 thread_id;
  guint16 depth;
  guint32 name_id;
  guint64 begin;
  guint64 end;
} StrobeScopeRef;

#define STROBE_TYPE_SCOPE_REF (strobe_scope_ref_get_type ())
GType           strobe_scope_ref_get_type (void);
StrobeScopeRef *strobe_scope_ref_copy     (const StrobeScopeRef *ref);
void            strobe_scope_ref_free     (StrobeScopeRef       *ref);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeScopeRef, strobe_scope_ref_free)

#define STROBE_TYPE_VIEW_STATE (strobe_view_state_get_type ())
G_DECLARE_FINAL_TYPE (StrobeViewState, strobe_view_state, STROBE, VIEW_STATE, GObject)

StrobeViewState      *strobe_view_state_new                   (void);

/* The range the time axes show; @end > @start (a zero-length range is widened by a tick). */
void                  strobe_view_state_set_visible_range     (StrobeViewState *self,
                                                               guint64          start,
                                                               guint64          end);
void                  strobe_view_state_get_visible_range     (StrobeViewState *self,
                                                               guint64         *start,
                                                               guint64         *end);
/* The selected range; FALSE (and the whole trace meant) when there is none. */
void                  strobe_view_state_set_selection         (StrobeViewState *self,
                                                               guint64          start,
                                                               guint64          end);
void                  strobe_view_state_clear_selection       (StrobeViewState *self);
gboolean              strobe_view_state_get_selection         (StrobeViewState *self,
                                                               guint64         *start,
                                                               guint64         *end);
/* A marked moment (a message's time, a memory marker): STROBE_VIEW_STATE_NONE for none. */
void                  strobe_view_state_set_cursor            (StrobeViewState *self,
                                                               guint64          time);
guint64               strobe_view_state_get_cursor            (StrobeViewState *self);
/* Where the pointer is on any time axis: STROBE_VIEW_STATE_NONE when on none. */
void                  strobe_view_state_set_hover             (StrobeViewState *self,
                                                               guint64          time);
guint64               strobe_view_state_get_hover             (StrobeViewState *self);
/* The log message (as the log model numbers it) another view asked the log view to show. */
void                  strobe_view_state_set_selected_message  (StrobeViewState *self,
                                                               guint64          index);
guint64               strobe_view_state_get_selected_message  (StrobeViewState *self);
/* The function (by its symbolized name) another view asked the memory view to show: its
 * allocations, callers and callees. Setting a name notifies even when it is the one set
 * before — a second jump to it selects it again. */
void                  strobe_view_state_set_selected_function (StrobeViewState *self,
                                                               const char      *function);
const char           *strobe_view_state_get_selected_function (StrobeViewState *self);
/* Live traces: keep the newest data in view. */
void                  strobe_view_state_set_follow_live       (StrobeViewState *self,
                                                               gboolean         follow);
gboolean              strobe_view_state_get_follow_live       (StrobeViewState *self);

G_END_DECLS
