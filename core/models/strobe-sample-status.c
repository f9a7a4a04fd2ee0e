/* strobe-sample-status.c — what sampling a program got, in the user's words: the same
 * sentence (which setting refused, what to do about it) in strobe-cli samples and in the
 * viewer, so a refusal is never a silent empty track.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-sample-model.h"

char *
strobe_sample_status_describe (const StrobeSampleStatus *s)
{
  g_return_val_if_fail (s != NULL, NULL);

  switch (s->mode)
    {
    case STROBE_SAMPLE_MODE_HARDWARE:
      /* Translators: %u is samples per second per thread */
      return g_strdup_printf (_("sampling CPU cycles at %u Hz per thread"), s->frequency);
    case STROBE_SAMPLE_MODE_SOFTWARE:
      /* Translators: %u is samples per second per thread */
      return g_strdup_printf (_("sampling the CPU clock at %u Hz per thread (no hardware cycle counter here)"),
                              s->frequency);
    case STROBE_SAMPLE_MODE_NOT_PERMITTED:
      if (s->paranoid != STROBE_SAMPLE_PARANOID_UNKNOWN && s->paranoid > 2)
        /* Translators: %d is the value of the kernel setting kernel.perf_event_paranoid */
        return g_strdup_printf (_("sampling was not permitted: kernel.perf_event_paranoid is %d. As root, run "
                                  "“sysctl kernel.perf_event_paranoid=2” (1 to see time in the kernel too), "
                                  "or give the program the CAP_PERFMON capability."), s->paranoid);
      /* Translators: %s is the system's error message */
      return g_strdup_printf (_("sampling was not permitted (%s): perf_event_open is blocked, for example by a "
                                "container's seccomp profile. Allow perf_event_open (docker: --cap-add PERFMON) "
                                "or give the program the CAP_PERFMON capability."), g_strerror (s->error));
    case STROBE_SAMPLE_MODE_UNAVAILABLE:
      /* Translators: %s is the system's error message */
      return g_strdup_printf (_("sampling was unavailable: this kernel has no perf events for it (%s)"),
                              g_strerror (s->error));
    case STROBE_SAMPLE_MODE_OFF:
    default:
      return g_strdup (_("sampling was switched off"));
    }
}
