#!/usr/bin/python3
"""png_ok.py FILE — FILE is a PNG with a valid IHDR of non-zero size."""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG signature")
length, kind = struct.unpack(">I4s", data[8:16])
if kind != b"IHDR" or length != 13:
    sys.exit("no IHDR")
w, h = struct.unpack(">II", data[16:24])
if zlib.crc32(data[12:29]) != struct.unpack(">I", data[29:33])[0]:
    sys.exit("bad IHDR crc")
if not (w > 0 and h > 0):
    sys.exit("empty image")
if not data.endswith(b"IEND\xaeB`\x82"):
    sys.exit("truncated PNG")
