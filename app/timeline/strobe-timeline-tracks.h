/* strobe-timeline-tracks.h — the timeline's tracks and their vertical layout, without
 * GTK: frames, regions, thread groups and threads in the thread table's order, counters;
 * each can be collapsed, hidden or moved (within its section, threads within their
 * group), and that layout is saved as a string (one per program, see
 * strobe-timeline-layouts.h) and applied again to the next trace of the program.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-threads-model.h"
#include "strobe-timeline-model.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_TRACK_FRAMES,      /* id: frame kind */
  STROBE_TRACK_REGIONS,
  STROBE_TRACK_GROUP,       /* a thread group's header */
  STROBE_TRACK_THREAD,      /* id: thread id; its scopes (depth down) and log ticks */
  STROBE_TRACK_COUNTER,     /* id: counter index */
  STROBE_TRACK_CPU,         /* the process's CPU usage from its samples (issue 22) */
} StrobeTrackKind;

/* Pixel sizes of the layout. */
#define STROBE_TRACK_ROW_H        18   /* one depth of scopes */
#define STROBE_TRACK_HEADER_H     18   /* a thread's name and log ticks */
#define STROBE_TRACK_GROUP_H      22
#define STROBE_TRACK_FRAMES_H     58
#define STROBE_TRACK_COUNTER_H    52
#define STROBE_TRACK_LANE_H       16
#define STROBE_TRACK_GAP          2    /* between tracks */
#define STROBE_TRACK_SAMPLES_H    11   /* a sampled thread's state strip and sample ticks */

typedef struct
{
  StrobeTrackKind kind;
  guint32  id;
  char    *key;          /* stable from one run of a program to the next */
  char    *title;
  char    *group;        /* threads and groups: the group's name ("" none) */
  gboolean hidden;
  gboolean collapsed;
  gboolean empty;        /* nothing drawn on it: hidden when empty tracks are */
  guint    depths;       /* threads: depth count; regions: lanes */
  gboolean has_log;      /* threads: log messages were seen on it */
  gboolean sampled;      /* threads: it has samples or thread states (a strip under its scopes) */
  guint8   counter_unit; /* counters: StrobeTimelineCounterUnit */
  guint8   counter_type;
  /* Layout (strobe_track_list_layout), in content pixels; height 0 when not shown. */
  int      y;
  int      height;
} StrobeTrack;

/* What the tracks are made from: a snapshot of the models. */
typedef struct
{
  const StrobeThreadInfo      *threads;       /* display order */
  guint                        n_threads;
  const guint16               *scope_threads; /* with CPU scopes */
  const guint                 *depths;        /* of each */
  guint                        n_scope_threads;
  const StrobeTimelineCounter *counters;
  guint                        n_counters;
  guint                        frame_kinds;   /* bit k: frames of kind k exist */
  guint                        region_lanes;  /* 0: no regions */
  const guint16               *log_threads;   /* threads that logged */
  guint                        n_log_threads;
  const guint16               *sampled_threads; /* threads with samples or states */
  guint                        n_sampled_threads;
} StrobeTrackSource;

typedef struct _StrobeTrackList StrobeTrackList;

StrobeTrackList   *strobe_track_list_new        (void);
void               strobe_track_list_free       (StrobeTrackList         *list);
/* Adds the tracks that appeared (existing ones keep their state), refreshes depths and
 * emptiness. TRUE when anything changed. */
gboolean           strobe_track_list_update     (StrobeTrackList         *list,
                                                 const StrobeTrackSource *source);
guint              strobe_track_list_get_n      (StrobeTrackList         *list);
StrobeTrack       *strobe_track_list_get        (StrobeTrackList         *list,
                                                 guint                    index);
/* -1 when there is none. */
int                strobe_track_list_find       (StrobeTrackList         *list,
                                                 StrobeTrackKind          kind,
                                                 guint32                  id);
/* Positions every shown track (hidden ones, empty ones when @hide_empty, the threads of a
 * collapsed group get height 0); returns the content height. */
int                strobe_track_list_layout     (StrobeTrackList         *list,
                                                 gboolean                 hide_empty);
/* The shown track at content @y, or -1. */
int                strobe_track_list_at_y       (StrobeTrackList         *list,
                                                 int                      y);
/* Where a thread track's depth row is, relative to the track. */
int                strobe_track_row_y           (guint                    depth);
/* Where a sampled thread track's strip is, relative to the track; -1 when it has none
 * (not sampled, or collapsed). */
int                strobe_track_samples_y       (const StrobeTrack       *track);
/* The depth at track-relative @y of a thread track (-1: its header). */
int                strobe_track_row_at          (const StrobeTrack       *track,
                                                 int                      y);
/* Moves track @from before the track now at @to (or to the end of its section for
 * G_MAXUINT), if both are in one section (threads: one group). FALSE otherwise. */
gboolean           strobe_track_list_move       (StrobeTrackList         *list,
                                                 guint                    from,
                                                 guint                    to);
/* The tracks' order and state as a string, and back: tracks named in @saved take its
 * order and state, others keep theirs (after the named ones of their section). Applied
 * again as tracks appear, so a live trace picks it up too. */
char              *strobe_track_list_save       (StrobeTrackList         *list);
void               strobe_track_list_restore    (StrobeTrackList         *list,
                                                 const char              *saved);
/* A track's state, remembered in the saved layout. */
void               strobe_track_list_set_hidden    (StrobeTrackList      *list,
                                                    guint                 index,
                                                    gboolean              hidden);
void               strobe_track_list_set_collapsed (StrobeTrackList      *list,
                                                    guint                 index,
                                                    gboolean              collapsed);
/* Every track shown and expanded, in the thread table's order. */
void               strobe_track_list_reset      (StrobeTrackList         *list);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeTrackList, strobe_track_list_free)

G_END_DECLS
