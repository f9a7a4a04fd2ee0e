/* log-emitter-client.h — the log view tests' side of tests/app/log-emitter.c: start it
 * sending to the viewer's recorder, tell it what to log, wait for its live trace.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-application.h"

typedef struct
{
  GSubprocess      *proc;
  GDataInputStream *out;
  guint32           pid;
  char             *path;   /* its live trace in @app's store */
} LogEmitter;

/* Starts $LOG_EMITTER sending to @app's recorder, has it log @first messages and waits
 * until @app's store lists its trace as live (its path in @e->path). */
void log_emitter_start (LogEmitter        *e,
                        StrobeApplication *app,
                        guint              first);
/* Writes @line to it; with @expect_prefix, reads its answer and checks how it begins. */
void log_emitter_say   (LogEmitter        *e,
                        const char        *line,
                        const char        *expect_prefix);
/* Tells it to quit, waits for it and frees what @e holds. */
void log_emitter_stop  (LogEmitter        *e);
