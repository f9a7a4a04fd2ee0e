/* strobe-misc.h — frames, bookmarks, regions and the process name (standard channels
 * "Frame", "Bookmark" and "Region"). Events and fields: runtime/INSTRUMENTATION.md.
 *
 *   strobe_frame_begin (STROBE_FRAME_GAME);  ...  strobe_frame_end (STROBE_FRAME_GAME);
 *   STROBE_BOOKMARK ("level loaded");
 *   strobe_region_begin ("Loading");  ...  strobe_region_end ("Loading");
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "strobe-channel.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* The standard channel "Frame". */
STROBE_CHANNEL_EXTERN (StrobeFrameChannel);
/* The standard channel "Bookmark". */
STROBE_CHANNEL_EXTERN (StrobeBookmarkChannel);
/* The standard channel "Region". */
STROBE_CHANNEL_EXTERN (StrobeRegionChannel);

/* ---- frames ------------------------------------------------------------------------- */

/* The kinds of frame, each a series of its own: the game (simulation) loop's and the
 * renderer's. */
typedef enum
{
  STROBE_FRAME_GAME   = 0,
  STROBE_FRAME_RENDER = 1,
} StrobeFrameType;

/* The number of frame kinds. */
#define STROBE_FRAME_TYPE_COUNT 2

/* Begins a frame of @type now (Misc.BeginFrame). A frame runs from its begin to its end;
 * frames of one type do not overlap (a reader ends an open one at the next begin), and
 * belong to the process, not to a thread: the n-th begin of a kind is its frame n.
 *
 * Cost: off: one load and a branch; on: a clock read and one synchronised event (a begin
 * and an end about two clock reads).
 * Blocks: as STROBE_LOG when the buffer pool is full.
 * Threads: any thread. In a signal handler only after a first frame outside it. */
void strobe_frame_begin (StrobeFrameType type);
/* Ends the frame of @type now (Misc.EndFrame).
 *
 * Cost, Blocks, Threads: as strobe_frame_begin(). */
void strobe_frame_end (StrobeFrameType type);
/* Ends the current frame of @type (if one is open) and begins the next at the same time:
 * for a loop with one call per frame.
 *
 * Cost: off: one load and a branch; on: one clock read and one or two events.
 * Blocks, Threads: as strobe_frame_begin(). */
void strobe_frame_mark (StrobeFrameType type);
/* strobe_frame_begin() at an explicit strobe_time() timestamp @ts (replay, tests).
 *
 * Cost: one event when the channel is on (no clock read).
 * Blocks, Threads: as strobe_frame_begin(). */
void strobe_frame_begin_at (StrobeFrameType type, uint64_t ts);
/* strobe_frame_end() at an explicit strobe_time() timestamp @ts.
 *
 * Cost, Blocks, Threads: as strobe_frame_begin_at(). */
void strobe_frame_end_at (StrobeFrameType type, uint64_t ts);

/* ---- bookmarks: named instants ---------------------------------------------------- */

/* A bookmark's static name with its source location, as STROBE_BOOKMARK makes it: its id
 * is assigned, and Misc.BookmarkSpec sent, the first time it is used with the channel on.
 * Its strings must live as long as the program. */
typedef struct
{
  uint32_t    id;        /* 0 until sent */
  uint32_t    line;
  const char *name;
  const char *file;
} StrobeBookmarkSpec;

/* Marks the instant now with the bookmark @spec (Misc.Bookmark: its id only).
 *
 * Cost: off: one load and a branch; on: a clock read and one synchronised event (about
 * 1.6 clock reads). The first use of @spec takes a mutex and sends its spec.
 * Blocks: as STROBE_LOG when the buffer pool is full; on the bookmark mutex the first
 * time.
 * Threads: any thread. In a signal handler only once @spec was used outside it. */
void strobe_bookmark (StrobeBookmarkSpec *spec);
/* strobe_bookmark() at an explicit strobe_time() timestamp @ts.
 *
 * Cost, Blocks, Threads: as strobe_bookmark(), without the clock read. */
void strobe_bookmark_at (StrobeBookmarkSpec *spec, uint64_t ts);
/* A bookmark whose text @text is made at run time (copied into each event, no spec;
 * NULL: empty).
 *
 * Cost: off: one load and a branch; on: a clock read and an event with the text (about
 * 2.4 clock reads for a short one).
 * Blocks: as STROBE_LOG when the buffer pool is full.
 * Threads: any thread. In a signal handler only after a first one outside it. */
void strobe_bookmark_text (const char *text);

/* A bookmark with a static name (a string literal), one spec per site.
 *
 * Cost, Blocks, Threads: as strobe_bookmark(). */
#define STROBE_BOOKMARK(name)                                                              \
  do                                                                                       \
    {                                                                                      \
      static StrobeBookmarkSpec strobe__bookmark_spec = { 0, __LINE__, (name), __FILE__ }; \
      if (STROBE_CHANNEL_ENABLED (StrobeBookmarkChannel))                                  \
        strobe_bookmark (&strobe__bookmark_spec);                                          \
    }                                                                                      \
  while (0)

/* ---- regions: named time ranges, possibly overlapping ------------------------------ */

/* Begins a region named @name now (Misc.RegionBegin, the name copied into the event;
 * NULL: ""). A region ends at the next strobe_region_end() with the same name (from any
 * thread); regions of the same name may nest: an end closes the latest open one. Regions
 * of different names overlap freely.
 *
 * Cost: off: one load and a branch; on: a clock read and an event with the name (a begin
 * and an end with a short name about 4 clock reads).
 * Blocks: as STROBE_LOG when the buffer pool is full.
 * Threads: any thread. In a signal handler only after a first region outside it. */
void strobe_region_begin (const char *name);
/* Ends the latest open region named @name now (Misc.RegionEnd).
 *
 * Cost, Blocks, Threads: as strobe_region_begin(). */
void strobe_region_end (const char *name);
/* strobe_region_begin() at an explicit strobe_time() timestamp @ts.
 *
 * Cost, Blocks, Threads: as strobe_region_begin(), without the clock read. */
void strobe_region_begin_at (const char *name, uint64_t ts);
/* strobe_region_end() at an explicit strobe_time() timestamp @ts.
 *
 * Cost, Blocks, Threads: as strobe_region_begin(), without the clock read. */
void strobe_region_end_at (const char *name, uint64_t ts);

/* ---- process ------------------------------------------------------------------------ */

/* A display name @name for the process (the handshake already carries the program's
 * name): Misc.ProcessInfo, an Important event on the always-on Trace channel, so every
 * output gets it, late ones too. Each call adds a record to the important cache, kept
 * for the process lifetime: call it once.
 *
 * Cost: one Important event (a mutex and a copy).
 * Blocks: on the important cache's mutex.
 * Threads: any thread; not in a signal handler. */
void strobe_set_process_name (const char *name);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
