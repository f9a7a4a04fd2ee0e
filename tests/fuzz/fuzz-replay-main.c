/* fuzz-replay-main.c — runs a libFuzzer target over files, without libFuzzer.
 *
 * Usage: fuzz-replay-TARGET PATH...  where a PATH is a file or a directory (its regular
 * files, sorted by name, hidden files skipped; a missing directory counts as empty).
 * Each input goes through LLVMFuzzerTestOneInput once; a crash or an abort() in the
 * target fails the test. This is how tests/fuzz/regressions/ and the seed corpora run
 * in the default test suite, built with the normal compiler and flags.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static unsigned n_inputs;

static int
run_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  uint8_t *data = NULL;
  size_t len = 0, cap = 0;

  if (f == NULL)
    {
      fprintf (stderr, "fuzz-replay: %s: %s\n", path, strerror (errno));
      return 0;
    }
  for (;;)
    {
      size_t n;

      if (len == cap)
        {
          cap = cap ? cap * 2 : 65536;
          data = realloc (data, cap);
          if (data == NULL)
            abort ();
        }
      n = fread (data + len, 1, cap - len, f);
      if (n == 0)
        break;
      len += n;
    }
  fclose (f);
  printf ("fuzz-replay: %s (%zu bytes)\n", path, len);
  fflush (stdout);
  /* An exact-size copy, so ASan sees reads past the input's end. */
  {
    uint8_t *exact = malloc (len ? len : 1);
    if (exact == NULL)
      abort ();
    memcpy (exact, data, len);
    LLVMFuzzerTestOneInput (exact, len);
    free (exact);
  }
  free (data);
  n_inputs++;
  return 1;
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static int
run_path (const char *path)
{
  struct stat st;
  DIR *dir;
  struct dirent *de;
  char **names = NULL;
  size_t n = 0, cap = 0;
  int ok = 1;

  if (stat (path, &st) != 0)
    {
      if (errno == ENOENT)
        return 1;   /* e.g. a regressions folder with nothing in it yet */
      fprintf (stderr, "fuzz-replay: %s: %s\n", path, strerror (errno));
      return 0;
    }
  if (!S_ISDIR (st.st_mode))
    return run_file (path);

  dir = opendir (path);
  if (dir == NULL)
    {
      fprintf (stderr, "fuzz-replay: %s: %s\n", path, strerror (errno));
      return 0;
    }
  while ((de = readdir (dir)) != NULL)
    {
      if (de->d_name[0] == '.')
        continue;
      if (n == cap)
        {
          cap = cap ? cap * 2 : 64;
          names = realloc (names, cap * sizeof *names);
          if (names == NULL)
            abort ();
        }
      names[n++] = strdup (de->d_name);
    }
  closedir (dir);
  if (n > 0)   /* qsort's array must not be NULL, even when empty */
    qsort (names, n, sizeof *names, compare_names);
  for (size_t i = 0; i < n; i++)
    {
      size_t len = strlen (path) + strlen (names[i]) + 2;
      char *full = malloc (len);

      snprintf (full, len, "%s/%s", path, names[i]);
      if (stat (full, &st) == 0 && S_ISREG (st.st_mode) && strcmp (names[i], "README.md") != 0)
        ok &= run_file (full);
      free (full);
      free (names[i]);
    }
  free (names);
  return ok;
}

int
main (int argc, char **argv)
{
  int ok = 1;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE-OR-DIR...\n", argv[0]);
      return 2;
    }
  for (int i = 1; i < argc; i++)
    ok &= run_path (argv[i]);
  printf ("fuzz-replay: %u inputs, no crash\n", n_inputs);
  return ok ? 0 : 1;
}
