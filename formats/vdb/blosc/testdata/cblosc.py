"""Runs c-blosc itself (Debian's libblosc1, through ctypes) for the Go tests.

Usage: /usr/bin/python3 cblosc.py DIR

DIR/jobs.json is a list of jobs, each {"op": "compress" or "decompress", "in":
file, "out": file} and, to compress, "codec" (a c-blosc compressor name),
"shuffle" (0 none, 1 byte, 2 bit), "typesize", "blocksize" (0: c-blosc's
choice), "clevel". Each job reads DIR/in and writes DIR/out; DIR/results.json
gets the return code of each call (the frame's or the data's size, or a
negative c-blosc error), and the library's version and compressors.
"""
import ctypes
import json
import os
import sys

lib = ctypes.CDLL("libblosc.so.1")
lib.blosc_get_version_string.restype = ctypes.c_char_p
lib.blosc_list_compressors.restype = ctypes.c_char_p

folder = sys.argv[1]
with open(os.path.join(folder, "jobs.json")) as f:
    jobs = json.load(f)
codes = []
for job in jobs:
    with open(os.path.join(folder, job["in"]), "rb") as f:
        data = f.read()
    if job["op"] == "compress":
        size = len(data) + 16
        out = ctypes.create_string_buffer(size)
        n = lib.blosc_compress_ctx(job["clevel"], job["shuffle"], job["typesize"], len(data), data,
                                   out, size, job["codec"].encode(), job["blocksize"], 1)
    else:
        nbytes, cbytes, blocksize = ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_size_t()
        lib.blosc_cbuffer_sizes(data, ctypes.byref(nbytes), ctypes.byref(cbytes), ctypes.byref(blocksize))
        out = ctypes.create_string_buffer(max(nbytes.value, 1))
        n = lib.blosc_decompress_ctx(data, out, nbytes.value, 1)
    codes.append(n)
    with open(os.path.join(folder, job["out"]), "wb") as f:
        f.write(out.raw[:max(n, 0)])
with open(os.path.join(folder, "results.json"), "w") as f:
    json.dump({"codes": codes, "version": lib.blosc_get_version_string().decode(),
               "compressors": lib.blosc_list_compressors().decode()}, f)
