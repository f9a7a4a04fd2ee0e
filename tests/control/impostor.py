# impostor.py — another user's listener on a program's control port at other loopback
# addresses (test-control.c, /control/impostor). Run as that user (setpriv). Listens on
# every ADDRESS:PORT it is given, greets each connection as a control server would (a
# random challenge), answers "auth NONCE" with a made-up proof (it cannot make a real
# one), and prints everything it receives, so the test can check that neither the secret
# nor a client proof ever reached it. Prints "ready" once listening. Standard library only.
import os
import select
import socket
import sys

listeners = []
for spec in sys.argv[1:]:
    host, port = spec.rsplit(':', 1)
    family = socket.AF_INET6 if ':' in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host.strip('[]'), int(port)))
    s.listen(16)
    listeners.append(s)
print('ready', flush=True)

peers = {}
while True:
    ready, _, _ = select.select(listeners + list(peers), [], [])
    for s in ready:
        if s in listeners:
            conn, addr = s.accept()
            print('connection from %s to %s' % (addr[0], s.getsockname()[0]), flush=True)
            conn.sendall(b'strobe-control challenge ' + os.urandom(32).hex().encode() + b'\n')
            peers[conn] = b''
            continue
        data = s.recv(4096)
        if not data:
            del peers[s]
            s.close()
            continue
        print('received %r' % data, flush=True)
        peers[s] += data
        while b'\n' in peers[s]:
            line, peers[s] = peers[s].split(b'\n', 1)
            if line.startswith(b'auth '):
                s.sendall(b'ok auth ' + os.urandom(32).hex().encode() + b'\n')
            else:
                s.sendall(b'ok\n')
