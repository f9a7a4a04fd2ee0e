/* strobe-heap-reserve.h — the viewer's main heap faulted in ahead of its frames.
 *
 * GTK draws each frame into a new image of up to the window's size, on the main thread,
 * from malloc. When the heap had to grow for it, the frame faulted every page of the image
 * in (1 000–1 300 faults, 15–20 ms under a hypervisor) — several times while a big trace
 * loads, as the heap grows with it. With this, glibc keeps blocks under 32 MiB in the
 * heap, grows the main heap 12 MiB past each need and gives back only what is free past
 * 48 MiB; a thread of its own faults those 12 MiB in as soon as the heap grows (a few ms,
 * nothing written) — and reads a byte of each page, as under a hypervisor's shadow paging
 * a page is slow on its first touch from user space even once the kernel faulted it in —
 * and again after a fork. Each window's frame first nudges it when the heap grew since it
 * last looked. It costs that much more resident (the 10 M-scope timeline bench, three runs
 * each: 297 → 313 MB).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* In main(), before anything else allocates much (once; later calls do nothing). */
void strobe_heap_reserve_start (void);
/* For tests: returns after the thread has looked at the heap once more (at once when
 * not started). */
void strobe_heap_reserve_sync  (void);

G_END_DECLS
