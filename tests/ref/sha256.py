#!/usr/bin/env python3
"""Reference SHA-256 digests for tests/common/test-sha256.c (Python's hashlib)."""
import hashlib

cases = {
    "empty": b"",
    "abc": b"abc",
    "a x 1000000": b"a" * 1000000,
    "bytes 0..255 x 3": bytes(range(256)) * 3,
    "x x 55": b"x" * 55,
    "x x 56": b"x" * 56,
    "x x 64": b"x" * 64,
}
for name, data in cases.items():
    print(f"{name}: {hashlib.sha256(data).hexdigest()}")
