#!/usr/bin/env python3
"""The realloc wrapper of runtime/INSTRUMENTATION.md ("A realloc wrapper"), as a newcomer
would use it: compiled with gcc's -Wuse-after-free and -Werror (at -O0 and -O2, where the
warning sees different code), run with the Memory channel on, and its trace read back with
strobe-cli. The obvious form, which passes the old pointer to _end after the realloc, must
still be rejected by the same compiler and flags: otherwise this test would prove nothing
(a compiler without the warning: skipped).

Usage: check-realloc-pattern.py INSTRUMENTATION.md CC RUNTIME-INCLUDE-DIR LIBSTROBE-A
       STROBE-CLI [CFLAG…]   (the CFLAGs: what the build's libstrobe.a needs besides)"""
import os
import re
import subprocess
import sys
import tempfile

doc, cc, include, lib, cli = sys.argv[1:6]
extra = sys.argv[6:]
WARNINGS = ['-std=c11', '-Wall', '-Wextra', '-Wuse-after-free', '-Werror']

text = open(doc, encoding='utf-8').read()
m = re.search(r'<!-- realloc-example: begin -->\s*```c\n(.*?)```\s*<!-- realloc-example: end -->', text, re.S)
if not m:
    sys.exit('FAIL: %s has no block between the realloc-example markers' % doc)
wrapper = m.group(1)

# What the wrapper must get right, each case checked in the trace below: an allocation
# through realloc (NULL, n), a growth, a shrink, and a failed realloc whose block stays.
MAIN = r'''
#include <stdint.h>
#include <stdio.h>

static volatile size_t too_big = SIZE_MAX / 4;   /* volatile: no compile-time size warning */

int
main (int argc, char **argv)
{
  char *a, *b, *c;

  strobe_parse_args (&argc, &argv);
  strobe_init (NULL);
  a = traced_realloc (NULL, 100);
  a = traced_realloc (a, 5000);
  a = traced_realloc (a, 50);
  b = traced_realloc (NULL, 300);
  c = traced_realloc (b, too_big);
  if (a == NULL || b == NULL || c != NULL)
    {
      fprintf (stderr, "unexpected allocator results\n");
      return 1;
    }
  /* b is still allocated: its free must end the allocation the table still holds. */
  strobe_memory_free (b, STROBE_MEMORY_HEAP_SYSTEM);
  free (b);
  strobe_shutdown ();
  free (a);   /* after the trace ended: live at its end */
  return 0;
}
'''

# The form INSTRUMENTATION.md showed before: the old pointer used after realloc.
OBVIOUS = r'''
#include <stdlib.h>
#include <strobe/strobe.h>

void *traced_realloc (void *old, size_t size);

void *
traced_realloc (void *old, size_t size)
{
  void *p;

  strobe_memory_realloc_begin (old, STROBE_MEMORY_HEAP_SYSTEM);
  p = realloc (old, size);
  strobe_memory_realloc_end (old, p, size, 0, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}
'''

# The first thing one does with fresh memory: report it before anything is written there.
# gcc's -Wmaybe-uninitialized (in -Wall) rejected this until the reports said they read
# nothing through their pointers.
FRESH = r'''
#include <stdlib.h>
#include <strobe/strobe.h>

void *traced_malloc (size_t size);
void arena_chunk (uint32_t arena);

void *
traced_malloc (size_t size)
{
  void *p = malloc (size);

  strobe_memory_alloc (p, size, 0, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}

void
arena_chunk (uint32_t arena)
{
  char chunk[256];

  strobe_memory_heap_mark (chunk, STROBE_MEMORY_HEAP_SYSTEM, arena);
  strobe_memory_heap_unmark (chunk, STROBE_MEMORY_HEAP_SYSTEM, arena);
}
'''


def compile_(src, out, opt, link=True):
    args = [cc, *WARNINGS, opt, *extra, '-I', include, src]
    args += [lib, '-llz4', '-lzstd', '-lpthread', '-lm', '-o', out] if link else ['-c', '-o', out]
    return subprocess.run(args, capture_output=True, text=True)


failed = False


def check(what, ok, detail=''):
    global failed
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok and detail:
        print(detail)
    failed |= not ok


with tempfile.TemporaryDirectory() as tmp:
    probe = os.path.join(tmp, 'probe.c')
    open(probe, 'w').write('int probe;\n')
    if compile_(probe, os.path.join(tmp, 'probe.o'), '-O0', link=False).returncode != 0:
        print('skip: %s does not know -Wuse-after-free' % cc)
        sys.exit(77)

    obvious = os.path.join(tmp, 'obvious.c')
    open(obvious, 'w').write(OBVIOUS)
    for opt in ('-O0', '-O2'):
        r = compile_(obvious, os.path.join(tmp, 'obvious.o'), opt, link=False)
        check('the obvious form is rejected at %s' % opt,
              r.returncode != 0 and 'use-after-free' in r.stderr, r.stderr)

    fresh = os.path.join(tmp, 'fresh.c')
    open(fresh, 'w').write(FRESH)
    for opt in ('-O0', '-O2'):
        r = compile_(fresh, os.path.join(tmp, 'fresh.o'), opt, link=False)
        check('reports of fresh memory compile at %s' % opt, r.returncode == 0, r.stderr)

    src = os.path.join(tmp, 'realloc-wrapper.c')
    open(src, 'w').write(wrapper + MAIN)
    for opt in ('-O0', '-O2'):
        exe = os.path.join(tmp, 'realloc-wrapper' + opt)
        trace = os.path.join(tmp, 'realloc' + opt + '.strobe')
        r = compile_(src, exe, opt)
        check('the documented wrapper compiles at %s' % opt, r.returncode == 0, r.stderr)
        if r.returncode != 0:
            continue
        # The failed realloc asks for SIZE_MAX / 4: let a sanitizer's allocator say NULL.
        env = dict(os.environ, LC_ALL='C')
        env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':allocator_may_return_null=1'
        r = subprocess.run([exe, '--trace=memory', '--tracefile=' + trace], capture_output=True, text=True, env=env)
        check('it runs (%s)' % opt, r.returncode == 0, r.stderr)
        if r.returncode != 0:
            continue
        out = subprocess.run([cli, 'memory', trace], capture_output=True, text=True, env=env).stdout
        check('4 allocations, 2 of them by realloc (%s)' % opt,
              re.search(r'^Allocations:\s+4 \(2 by realloc\b', out, re.M), out)
        check('only the shrunk block is live at the end (%s)' % opt,
              re.search(r'^Live at end:\s+50 bytes in 1 allocations?$', out, re.M), out)
        check('3 frees: the blocks the growth and the shrink replaced, and the one whose realloc failed (%s)' % opt,
              re.search(r'^Frees:\s+3$', out, re.M), out)

sys.exit(1 if failed else 0)
