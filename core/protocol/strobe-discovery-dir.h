/* strobe-discovery-dir.h — where running programs announce themselves (runtime/CONTROL.md,
 * "Discovery") and whether that directory can be trusted: the one rule the runtime, which
 * writes the discovery files, and core/control, which reads them, share.
 *
 * Anyone can create a directory in /tmp, so a directory of the right name proves nothing:
 * another user who makes /tmp/strobe-UID first could read what is announced there, plant
 * entries, or — the runtime refusing to write into it — hide every program. So the
 * directory is used only when it is the user's alone, as D-Bus's and ssh-agent's
 * per-user directories are, and otherwise refused with the reason.
 *
 * Plain C11 and POSIX (the runtime uses it): bool and errno. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The user's discovery directory: $XDG_RUNTIME_DIR/strobe when XDG_RUNTIME_DIR is an
 * absolute path to a directory owned by the effective uid, else /tmp/strobe-UID. False
 * with errno ENAMETOOLONG when it does not fit @size. */
bool strobe_discovery_dir_path (char *buf, size_t size);

/* True when @path is the user's alone: a real directory (not a symbolic link) owned by
 * the effective uid, with no permission for group or others. With @create, a missing
 * directory is made first (mode 0700), and so is the missing strobe/ under an existing
 * $XDG_RUNTIME_DIR. Otherwise false with errno set (ENOENT: it does not exist, which a
 * reader takes as "no programs") and, in @why, a phrase to follow the path: "belongs to
 * uid 65534, not to you (uid 1000)". */
bool strobe_discovery_dir_check (const char *path, bool create, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif
