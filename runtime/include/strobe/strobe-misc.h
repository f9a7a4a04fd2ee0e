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

STROBE_CHANNEL_EXTERN (StrobeFrameChannel);      /* "Frame" */
STROBE_CHANNEL_EXTERN (StrobeBookmarkChannel);   /* "Bookmark" */
STROBE_CHANNEL_EXTERN (StrobeRegionChannel);     /* "Region" */

/* ---- frames ------------------------------------------------------------------------- */

typedef enum
{
  STROBE_FRAME_GAME   = 0,
  STROBE_FRAME_RENDER = 1,
} StrobeFrameType;

#define STROBE_FRAME_TYPE_COUNT 2

/* A frame of @type runs from its begin to its end; frames of one type do not overlap. */
void strobe_frame_begin (StrobeFrameType type);
void strobe_frame_end (StrobeFrameType type);
/* Ends the current frame of @type (if one is open) and begins the next at the same time. */
void strobe_frame_mark (StrobeFrameType type);
/* At an explicit strobe_time() timestamp (replay, tests). */
void strobe_frame_begin_at (StrobeFrameType type, uint64_t ts);
void strobe_frame_end_at (StrobeFrameType type, uint64_t ts);

/* ---- bookmarks: named instants ---------------------------------------------------- */

typedef struct
{
  uint32_t    id;        /* 0 until sent */
  uint32_t    line;
  const char *name;
  const char *file;
} StrobeBookmarkSpec;

void strobe_bookmark (StrobeBookmarkSpec *spec);
void strobe_bookmark_at (StrobeBookmarkSpec *spec, uint64_t ts);
/* A bookmark whose text is made at run time (sent with the event, no spec). */
void strobe_bookmark_text (const char *text);

/* A bookmark with a static name (a string literal). */
#define STROBE_BOOKMARK(name)                                                              \
  do                                                                                       \
    {                                                                                      \
      static StrobeBookmarkSpec strobe__bookmark_spec = { 0, __LINE__, (name), __FILE__ }; \
      if (STROBE_CHANNEL_ENABLED (StrobeBookmarkChannel))                                  \
        strobe_bookmark (&strobe__bookmark_spec);                                          \
    }                                                                                      \
  while (0)

/* ---- regions: named time ranges, possibly overlapping ------------------------------ */

/* A region ends at the next strobe_region_end() with the same name (from any thread);
 * regions of the same name may nest: an end closes the latest open one. */
void strobe_region_begin (const char *name);
void strobe_region_end (const char *name);
void strobe_region_begin_at (const char *name, uint64_t ts);
void strobe_region_end_at (const char *name, uint64_t ts);

/* ---- process ------------------------------------------------------------------------ */

/* A display name for the process (the handshake already carries the program's name). */
void strobe_set_process_name (const char *name);

#ifdef __cplusplus
}
#endif
