/* strobe-session.h — the session group a process's traces belong to.
 *
 * Processes that work together (a client and its server, a launcher and its workers) give
 * their traces one session name; a recorder files traces with the same name as one group
 * and a viewer shows them on one time axis. The name comes from STROBE_SESSION (children
 * inherit it with the environment) or from strobe_set_session_name(); it goes into the
 * handshake of every output started after it is set (core/protocol/PROTOCOL.md §1,
 * metadata id 13).
 *
 *   strobe_set_session_name ("checkout-test");   // before strobe_init or an output
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* The longest session name, in bytes. */
#define STROBE_SESSION_NAME_MAX 255

/* Makes @name (UTF-8, 1–255 bytes, no NUL) this process's session name for the outputs
 * started from now on (an open output keeps the handshake it began with), and sets
 * STROBE_SESSION so that programs this one starts join the same session. Returns false
 * with EINVAL for NULL or an empty name, ENAMETOOLONG above STROBE_SESSION_NAME_MAX.
 *
 * Cost: a mutex, a copy and setenv().
 * Blocks: on the session name's mutex.
 * Threads: any thread; as setenv(), not while another thread reads the environment
 * (call it at start, before the program starts threads). Not in a signal handler. */
bool strobe_set_session_name (const char *name);
/* Copies the session name (STROBE_SESSION as it was when the runtime started, or the
 * last strobe_set_session_name()) into
 * @buf of @size bytes, NUL-terminated, and returns its length; 0 (and an empty @buf) when
 * the process has none. Returns 0 with EINVAL when @buf is NULL or @size is 0; a name
 * longer than @size − 1 is cut.
 *
 * Cost: a mutex and a copy.
 * Blocks: on the session name's mutex.
 * Threads: any thread; not in a signal handler. */
size_t strobe_get_session_name (char *buf, size_t size);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
