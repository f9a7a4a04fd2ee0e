/* strobe-memory-private.h — what the LD_PRELOAD interposer needs from the memory
 * channel; not installed. */
#pragma once

#include "strobe-private.h"

/* Non-zero while the calling thread is inside the runtime (or is one of the runtime's own
 * threads): allocations it makes then are not traced. */
extern __thread int strobe__memory_guard __attribute__ ((tls_model ("initial-exec")));


/* The events without the channel test (the caller tested MemoryChannel). */
void strobe__memory_alloc_event (const void *ptr, uint64_t size, uint32_t alignment, uint32_t heap);
void strobe__memory_free_event (const void *ptr, uint32_t heap);
void strobe__memory_realloc_free_event (const void *old_ptr, uint32_t heap);
void strobe__memory_realloc_alloc_event (const void *old_ptr, const void *new_ptr, uint64_t size,
                                         uint32_t alignment, uint32_t heap);
/* Reads STROBE_CALLSTACKS. */
void strobe__memory_init_from_env (void);
