/* strobe-sample-unwind.c — see strobe-sample-unwind.h.
 *
 * One Dwfl holds every module the trace's map has loaded, each reported at its recorded
 * bias (the way the symbolizer reports one), with a "process" attached whose only thread
 * is the copy being unwound: its registers are the sample's ip, sp and bp, its memory the
 * copied bytes from sp up. libdw then walks the frames with each module's CFI
 * (.eh_frame, or .debug_frame from a separate debug file), falling back to the frame
 * pointer where a module has none. A read outside the copy fails, which ends the walk
 * there: the stack is as deep as the copy reaches, and one that needed more (a caller's
 * frame past the copy's end) gets the "[truncated]" root of the runtime's cut stacks
 * above it — not its last frame passed off as a thread's first function.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-sample-unwind.h"

#include <elfutils/libdwfl.h>
#include <string.h>

#include "strobe-memory-records.h"

#define MAX_FRAMES  256
/* x86-64 DWARF register numbers. */
#define DWARF_X86_64_RBP 6
#define DWARF_X86_64_RSP 7

struct _StrobeSampleUnwinder
{
  StrobeMemoryModel      *stacks;
  Dwfl                   *dwfl;        /* NULL: no module could be reported */
  Dwfl_Callbacks          callbacks;
  char                   *debuginfo_path;
  const StrobeSampleCopy *copy;        /* the one being unwound */
  gboolean                beyond;      /* the walk read past the copy's end */
  guint64                 frames[MAX_FRAMES];
  guint                   n;
  guint64                 total_frames, shallow;
};

static pid_t
next_thread (Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
  (void) dwfl;
  if (*thread_argp != NULL)
    return 0;
  *thread_argp = dwfl_arg;
  return 1;
}

static bool
get_thread (Dwfl *dwfl, pid_t tid, void *dwfl_arg, void **thread_argp)
{
  (void) dwfl;
  (void) tid;
  *thread_argp = dwfl_arg;
  return true;
}

static bool
memory_read (Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *dwfl_arg)
{
  StrobeSampleUnwinder *self = dwfl_arg;
  const StrobeSampleCopy *c = self->copy;

  (void) dwfl;
  if (c == NULL || addr < c->sp)
    return false;
  if (addr - c->sp > c->size || c->size - (addr - c->sp) < sizeof *result)
    {
      self->beyond = TRUE;
      return false;
    }
  memcpy (result, c->stack + (addr - c->sp), sizeof *result);
  return true;
}

static bool
set_initial_registers (Dwfl_Thread *thread, void *thread_arg)
{
  StrobeSampleUnwinder *self = thread_arg;
  Dwarf_Word regs[2] = { self->copy->bp, self->copy->sp };

  if (!dwfl_thread_state_registers (thread, DWARF_X86_64_RBP, 2, regs))
    return false;
  dwfl_thread_state_register_pc (thread, self->copy->ip);
  return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
  .next_thread = next_thread,
  .get_thread = get_thread,
  .memory_read = memory_read,
  .set_initial_registers = set_initial_registers,
};

StrobeSampleUnwinder *
strobe_sample_unwinder_new (StrobeMemoryModel *stacks)
{
  g_autoptr (GPtrArray) modules = NULL;
  StrobeSampleUnwinder *self;
  guint reported = 0;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (stacks), NULL);
  self = g_new0 (StrobeSampleUnwinder, 1);
  self->stacks = g_object_ref (stacks);
  self->debuginfo_path = g_strdup (":.debug:/usr/lib/debug");
  self->callbacks.find_elf = dwfl_build_id_find_elf;
  self->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
  self->callbacks.section_address = dwfl_offline_section_address;
  self->callbacks.debuginfo_path = &self->debuginfo_path;
  self->dwfl = dwfl_begin (&self->callbacks);
  if (self->dwfl == NULL)
    return self;
  modules = strobe_memory_model_get_modules (stacks);
  dwfl_report_begin (self->dwfl);
  for (guint i = 0; i < modules->len; i++)
    {
      const StrobeMemoryModule *m = g_ptr_array_index (modules, i);

      /* Only what was loaded at the end: two modules at one address cannot both be in. A
       * module whose file is gone (or never was: the vdso) is left out; the walk stops at
       * its frames, which the symbolizer could not name either. */
      if (m->unloaded || m->path == NULL || m->path[0] != '/')
        continue;
      if (dwfl_report_elf (self->dwfl, m->path, m->path, -1, m->bias, true) != NULL)
        reported++;
    }
  dwfl_report_end (self->dwfl, NULL, NULL);
  if (reported == 0 || !dwfl_attach_state (self->dwfl, NULL, 1, &thread_callbacks, self))
    g_clear_pointer (&self->dwfl, dwfl_end);
  return self;
}

void
strobe_sample_unwinder_free (StrobeSampleUnwinder *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->dwfl, dwfl_end);
  g_object_unref (self->stacks);
  g_free (self->debuginfo_path);
  g_free (self);
}

static int
on_frame (Dwfl_Frame *state, void *arg)
{
  StrobeSampleUnwinder *self = arg;
  Dwarf_Addr pc;
  bool activation = false;

  if (!dwfl_frame_pc (state, &pc, &activation) || pc == 0)
    return DWARF_CB_ABORT;
  /* As the runtime writes stacks: every frame reads like a return address, the first
   * (where the thread was) as that address + 1. */
  self->frames[self->n++] = activation ? pc + 1 : pc;
  return self->n < MAX_FRAMES ? DWARF_CB_OK : DWARF_CB_ABORT;
}

guint32
strobe_sample_unwinder_unwind (const StrobeSampleCopy *copy, gpointer data)
{
  StrobeSampleUnwinder *self = data;

  g_return_val_if_fail (self != NULL && copy != NULL, 0);
  if (self->dwfl == NULL || copy->ip == 0)
    return 0;
  self->copy = copy;
  self->n = 0;
  self->beyond = FALSE;
  /* Its end (the copy's end, a frame in no module) is an "error": the frames before it
   * are the stack. */
  dwfl_getthread_frames (self->dwfl, 1, on_frame, self);
  self->copy = NULL;
  if (self->n == 0)
    return 0;
  self->total_frames += self->n;
  if (self->n == 1)
    {
      /* Stopped at once (a module whose file is not here, such as the vdso): the
       * kernel's chain, if it has callers, is no worse — unless the copy was too short
       * for the first frame and the chain's caller is in no module: then the chain was
       * read through code without frame pointers (stack data taken for addresses). */
      StrobeMemoryFrame first[2];
      self->shallow++;
      if (copy->chain && strobe_memory_model_get_frames (self->stacks, copy->chain, first, 2) > 1
          && (!self->beyond || first[1].module != 0))
        return 0;
    }
  if (self->beyond && self->n < MAX_FRAMES)
    self->frames[self->n++] = STROBE_MEMNODE_TRUNCATED;
  return strobe_memory_model_add_stack (self->stacks, self->frames, self->n);
}

void
strobe_sample_unwinder_get_stats (StrobeSampleUnwinder *self, guint64 *frames, guint64 *shallow)
{
  g_return_if_fail (self != NULL);
  if (frames)
    *frames = self->total_frames;
  if (shallow)
    *shallow = self->shallow;
}

guint
strobe_sample_unwind (StrobeSampleModel *samples, StrobeMemoryModel *stacks)
{
  g_autoptr (StrobeSampleUnwinder) unwinder = NULL;
  StrobeSampleSummary summary;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (samples), 0);
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (stacks), 0);
  strobe_sample_model_get_summary (samples, &summary);
  if (summary.to_unwind == 0)
    return 0;
  unwinder = strobe_sample_unwinder_new (stacks);
  return strobe_sample_model_unwind (samples, strobe_sample_unwinder_unwind, unwinder);
}
