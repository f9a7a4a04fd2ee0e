/* strobe-misc.c — frames, bookmarks, regions and the process name. Wire format:
 * runtime/INSTRUMENTATION.md. All of these are rare next to CPU scopes, so they are
 * plain synchronised events (ordered across threads by their serial) sent out of line. */
#include "strobe-instrument-private.h"
#include "strobe-standard-values.h"

#include <unistd.h>

_Static_assert ((int) STROBE_FRAME_GAME == (int) STROBE_STANDARD_FRAME_GAME &&
                (int) STROBE_FRAME_RENDER == (int) STROBE_STANDARD_FRAME_RENDER &&
                (int) STROBE_FRAME_TYPE_COUNT == (int) STROBE_STANDARD_FRAME_KINDS,
                "frame kinds must match core/protocol/strobe-standard-values.h");

StrobeChannel StrobeFrameChannel = { 0, "FrameChannel", 0, 0, false, false, 0 };
StrobeChannel StrobeBookmarkChannel = { 0, "BookmarkChannel", 0, 0, false, false, 0 };
StrobeChannel StrobeRegionChannel = { 0, "RegionChannel", 0, 0, false, false, 0 };

__attribute__ ((constructor)) static void
misc_channels_ctor (void)
{
  strobe_channel_register (&StrobeFrameChannel);
  strobe_channel_register (&StrobeBookmarkChannel);
  strobe_channel_register (&StrobeRegionChannel);
}

STROBE_EVENT (Misc, BeginFrame, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint8, FrameType))
STROBE_EVENT (Misc, EndFrame, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint8, FrameType))
STROBE_EVENT (Misc, BookmarkSpec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (uint32, Line)
              STROBE_FIELD (ansi, Name)
              STROBE_FIELD (ansi, File))
STROBE_EVENT (Misc, Bookmark, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (ansi, Text))
STROBE_EVENT (Misc, RegionBegin, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (ansi, Name))
STROBE_EVENT (Misc, RegionEnd, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (ansi, Name))
STROBE_EVENT (Misc, ProcessInfo, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, ProcessId)
              STROBE_FIELD (ansi, Name))

static uint32_t        next_bookmark_id = 1;
/* Per frame type: is a frame open (for strobe_frame_mark)? Only advisory. */
static int             frame_open[STROBE_FRAME_TYPE_COUNT];

/* ---- frames ------------------------------------------------------------------------- */

void
strobe_frame_begin_at (StrobeFrameType type, uint64_t ts)
{
  if ((unsigned) type < STROBE_FRAME_TYPE_COUNT)
    __atomic_store_n (&frame_open[type], 1, __ATOMIC_RELAXED);
  STROBE_LOG (Misc, BeginFrame, StrobeFrameChannel)
    {
      STROBE_SET (Cycle, ts);
      STROBE_SET (FrameType, (uint8_t) type);
    }
}

void
strobe_frame_end_at (StrobeFrameType type, uint64_t ts)
{
  if ((unsigned) type < STROBE_FRAME_TYPE_COUNT)
    __atomic_store_n (&frame_open[type], 0, __ATOMIC_RELAXED);
  STROBE_LOG (Misc, EndFrame, StrobeFrameChannel)
    {
      STROBE_SET (Cycle, ts);
      STROBE_SET (FrameType, (uint8_t) type);
    }
}

void
strobe_frame_begin (StrobeFrameType type)
{
  if (STROBE_CHANNEL_ENABLED (StrobeFrameChannel))
    strobe_frame_begin_at (type, strobe_time ());
}

void
strobe_frame_end (StrobeFrameType type)
{
  if (STROBE_CHANNEL_ENABLED (StrobeFrameChannel))
    strobe_frame_end_at (type, strobe_time ());
}

void
strobe_frame_mark (StrobeFrameType type)
{
  uint64_t ts;

  if (!STROBE_CHANNEL_ENABLED (StrobeFrameChannel))
    return;
  ts = strobe_time ();
  if ((unsigned) type < STROBE_FRAME_TYPE_COUNT && __atomic_load_n (&frame_open[type], __ATOMIC_RELAXED))
    strobe_frame_end_at (type, ts);
  strobe_frame_begin_at (type, ts);
}

/* ---- bookmarks ---------------------------------------------------------------------- */

static uint32_t
bookmark_spec_id (StrobeBookmarkSpec *spec)
{
  uint32_t id = __atomic_load_n (&spec->id, __ATOMIC_ACQUIRE);

  if (id)
    return id;
  pthread_mutex_lock (&strobe__bookmark_lock);
  id = spec->id;
  if (id == 0)
    {
      id = next_bookmark_id++;
      STROBE_LOG (Misc, BookmarkSpec, StrobeTraceChannel)
        {
          STROBE_SET (Id, id);
          STROBE_SET (Line, spec->line);
          STROBE_SET_STRING (Name, spec->name ? spec->name : "");
          if (spec->file)
            STROBE_SET_STRING (File, spec->file);
        }
      __atomic_store_n (&spec->id, id, __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&strobe__bookmark_lock);
  return id;
}

void
strobe_bookmark_at (StrobeBookmarkSpec *spec, uint64_t ts)
{
  uint32_t id;

  if (!STROBE_CHANNEL_ENABLED (StrobeBookmarkChannel))
    return;
  id = bookmark_spec_id (spec);
  STROBE_LOG (Misc, Bookmark, StrobeBookmarkChannel)
    {
      STROBE_SET (Cycle, ts);
      STROBE_SET (Id, id);
    }
}

void
strobe_bookmark (StrobeBookmarkSpec *spec)
{
  strobe_bookmark_at (spec, strobe_time ());
}

void
strobe_bookmark_text (const char *text)
{
  STROBE_LOG (Misc, Bookmark, StrobeBookmarkChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET_STRING (Text, text ? text : "");
    }
}

/* ---- regions ------------------------------------------------------------------------ */

void
strobe_region_begin_at (const char *name, uint64_t ts)
{
  STROBE_LOG (Misc, RegionBegin, StrobeRegionChannel)
    {
      STROBE_SET (Cycle, ts);
      STROBE_SET_STRING (Name, name ? name : "");
    }
}

void
strobe_region_end_at (const char *name, uint64_t ts)
{
  STROBE_LOG (Misc, RegionEnd, StrobeRegionChannel)
    {
      STROBE_SET (Cycle, ts);
      STROBE_SET_STRING (Name, name ? name : "");
    }
}

void
strobe_region_begin (const char *name)
{
  if (STROBE_CHANNEL_ENABLED (StrobeRegionChannel))
    strobe_region_begin_at (name, strobe_time ());
}

void
strobe_region_end (const char *name)
{
  if (STROBE_CHANNEL_ENABLED (StrobeRegionChannel))
    strobe_region_end_at (name, strobe_time ());
}

/* ---- process ------------------------------------------------------------------------ */

void
strobe_set_process_name (const char *name)
{
  STROBE_LOG (Misc, ProcessInfo, StrobeTraceChannel)
    {
      STROBE_SET (ProcessId, (uint32_t) getpid ());
      STROBE_SET_STRING (Name, name ? name : "");
    }
}
