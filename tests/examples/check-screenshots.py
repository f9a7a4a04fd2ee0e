#!/usr/bin/env python3
"""build-aux/make-screenshots.sh, as the README's maintainer runs it: a short demo recorded
and a picture saved of each view. Each PNG must be the asked size (less the window's frame), show a window (not a
blank or single-colour surface), and differ from the others (each view drew itself, not
the previous one).

Usage: check-screenshots.py MAKE-SCREENSHOTS.SH BUILD-DIR"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

PAGES = ["overview", "timeline", "log", "memory"]
WIDTH, HEIGHT = 1000, 700


def read_png(path):
    """(width, height, rows of RGBA bytes): the PNGs GdkTexture writes (8-bit RGB(A))."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = header[:4]
    if depth != 8 or colour not in (2, 6):
        raise ValueError(f"{path}: unexpected PNG format depth {depth} colour {colour}")
    bpp = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = row[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                row[x] = (row[x] + a) & 255
            elif kind == 2:
                row[x] = (row[x] + b) & 255
            elif kind == 3:
                row[x] = (row[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(row))
        prev = row
    return width, height, bpp, rows


def main():
    script, build_dir = sys.argv[1:3]
    failures = []
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, STROBE_BUILD_DIR=os.path.abspath(build_dir),
                   SHOT_DURATION="2", SHOT_SIZE=f"{WIDTH}x{HEIGHT}", SHOT_PAGES=" ".join(PAGES))
        env.pop("DISPLAY", None)
        run = subprocess.run([script, out], env=env, capture_output=True, text=True, timeout=240)
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        if run.returncode != 0:
            print(f"make-screenshots.sh exited with {run.returncode}")
            return 1
        samples = {}
        for page in PAGES:
            path = os.path.join(out, page + ".png")
            if not os.path.exists(path):
                failures.append(f"{page}.png was not written")
                continue
            width, height, bpp, rows = read_png(path)
            # The window's size less its frame (client-side decorations' shadow).
            if not (WIDTH - 24 <= width <= WIDTH and HEIGHT - 24 <= height <= HEIGHT):
                failures.append(f"{page}.png is {width}x{height}, asked {WIDTH}x{HEIGHT}")
                continue
            colours = set()
            for row in rows[::7]:
                for x in range(0, len(row), bpp * 5):
                    colours.add(row[x:x + 3])
            # A window with text, headers and a view has hundreds of colours (antialiasing);
            # a blank or failed render has a handful.
            if len(colours) < 64:
                failures.append(f"{page}.png has {len(colours)} colours: nothing was drawn")
            # What lies under the view switcher: the part of the window that is the view.
            samples[page] = b"".join(rows[y][:] for y in range(height // 4, height, 9))
            print(f"{page}.png {width}x{height}, {len(colours)} colours")
        names = list(samples)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                differing = sum(1 for p, q in zip(samples[a], samples[b]) if p != q)
                if differing < len(samples[a]) // 20:
                    failures.append(f"{a}.png and {b}.png are nearly the same picture ({differing} bytes differ)")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(PAGES) - len(failures)} passed, {len(failures)} failed" if failures else "all screenshots good")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
