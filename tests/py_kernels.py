"""Planted Python kernels for tests/test_python.sh: each misbehaves one way a Python kernel can"""
import os
import signal
import sys
import time

import numpy as np


def raises(x):  # an exception past 3 inputs
    if len(x) > 3:
        raise ValueError("too long")
    return x


def bad_shape(x):  # one result too many
    return np.zeros(len(x) + 1, np.float32)


def float64(x):  # computes in binary64 and forgets to round
    return x.astype(np.float64) * 0.5


def crash(x):  # the interpreter dies of a signal at x = 1
    if np.any(x == 1.0):
        os.kill(os.getpid(), signal.SIGSEGV)
    return x


def hang(x):  # never returns at x = 2
    if np.any(x == 2.0):
        time.sleep(3600)
    return x


def chatty(x):  # prints as it computes: to stdout, the protocol's pipe (py_eval keeps it apart)
    print("computing", len(x))
    sys.stdout.buffer.write(b"gelu")
    sys.stdout.flush()
    os.write(1, b"gelu")
    from scipy.special import erfc
    x64 = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        y = 0.5 * x64 * erfc(-x64 / np.sqrt(2.0))
    return np.where(np.isneginf(x64), -0.0, y).astype(np.float32)
