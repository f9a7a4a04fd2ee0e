/* bench-decode.h — the floor under every analysis figure: the decoder delivering each
 * Cpu.EventBatch of a trace to an analyzer that only reads the array; and the fair
 * "decoder alone" for scopes: the same with every scope record decoded (its times and
 * spec id), nothing kept — what any analysis of the scopes has to do at the least. */
#pragma once

#include <glib.h>

/* Seconds to decode @path: read into memory first (@in_memory: the decoder alone), or
 * streamed from the file as strobe-cli reads it. */
double bench_decode_only (const char *path,
                          gboolean    in_memory);

/* Seconds to decode @path streamed from the file, every batch's records walked; the
 * number of records in *@records. */
double bench_decode_walk (const char *path,
                          guint64    *records);
