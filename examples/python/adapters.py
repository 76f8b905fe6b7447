"""One-line adapters: a framework's GELU as `gelulab validate --python FILE.py:FUNC` calls it
(docs/exec-protocol.md, "Python"). Each takes a one-dimensional NumPy array (float32; with
--abi bf16 / f16 an ml_dtypes.bfloat16 / numpy.float16 one; with --backward x and dy) and
returns an array of the same shape and dtype: a torch tensor or a JAX array will do.

    gelulab validate --python examples/python/adapters.py:torch_gelu
    gelulab validate --python examples/python/adapters.py:jax_gelu_exact --backward

Each imports its framework when first called, so the file loads where only some are installed.
"""
import numpy as np


def torch_gelu(x):  # torch.nn.functional.gelu, exact (mkldnn on, the default)
    import torch
    return torch.nn.functional.gelu(torch.from_numpy(x))


def torch_gelu_tanh(x):
    import torch
    return torch.nn.functional.gelu(torch.from_numpy(x), approximate="tanh")


def torch_gelu_grad(x, dy):  # --backward: dx = dy gelu'(x), through autograd
    import torch
    return torch.autograd.functional.vjp(torch.nn.functional.gelu, torch.from_numpy(x),
                                         torch.from_numpy(dy))[1]


def jax_gelu(x):  # jax.nn.gelu's default: the tanh form
    import jax
    return jax.nn.gelu(x)


def jax_gelu_exact(x, dy=None):  # with --backward: jax.vjp
    import jax
    f = lambda v: jax.nn.gelu(v, approximate=False)  # noqa: E731
    return f(x) if dy is None else jax.vjp(f, x)[1](dy)[0]


def numpy_gelu(x):  # exact GELU in binary64, rounded once: what a reference looks like
    from scipy.special import erfc
    x64 = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        y = 0.5 * x64 * erfc(-x64 / np.sqrt(2.0))
    return np.where(np.isneginf(x64), -0.0, y).astype(x.dtype)
