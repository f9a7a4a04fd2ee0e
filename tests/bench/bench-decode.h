/* bench-decode.h — the floor under every analysis figure: the decoder delivering each
 * Cpu.EventBatch of a trace to an analyzer that only reads the array. */
#pragma once

#include <glib.h>

/* Seconds to decode @path: read into memory first (@in_memory: the decoder alone), or
 * streamed from the file as strobe-cli reads it. */
double bench_decode_only (const char *path,
                          gboolean    in_memory);
