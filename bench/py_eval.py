"""The Python evaluator (docs/exec-protocol.md): the GELU of TensorFlow, JAX, ONNX Runtime and
OpenVINO as a Python program calls it, and any Python callable, on gelulab's pipe protocol.

  python py_eval.py [--serve] [--backward] [--abi f32|bf16|f16] PEER
  python py_eval.py [--serve] [--backward] [--abi f32|bf16|f16] --callable FILE.py:FUNC
  python py_eval.py --serve-many [LIBRARY] | --time [LIBRARY]
  python py_eval.py --version LIBRARY      tensorflow, jax, onnxruntime or openvino: the version
                                           installed (its package's metadata: nothing loads)
  python py_eval.py --list                 the peers, a line each: name, then how it is called

  (none)     the plain protocol: all of stdin, then all the results on stdout
  --serve    requests until stdin ends: a little-endian uint64 byte count, then that many bytes
             of inputs; the answer is the results (as many bytes; a backward kernel's: half)
  --serve-many  requests as --serve's, for every peer of a library in one process (a framework
             loads once; LIBRARY names the process, one per library): each request's bytes lead
             with the arguments that name its kernel (a little-endian uint64 length, then the
             text, split as the shell does: "--abi bf16 tf-2.21-gelu")
  --time     the timing protocol (gelulab-bench; one process for every peer of a library,
             named by LIBRARY):
             requests framed as --serve's, each holding little-endian uint64s k and n, the
             arguments that name a peer or callable (a uint64 length, then "--backward
             tf-2.21-gelu"), and n inputs, or none; inputs become the framework's own tensor,
             kept for that peer and n (only the last one above 2^20 elements, but the inputs
             of each kind and size above it are kept: a request without inputs makes a peer's
             tensor from them; a tensor made is called once, untimed); then k calls on it are
             timed, and the answer is the seconds they took (a little-endian binary64): the
             framework's call in a loop, the pipe and the conversions excluded
  --backward inputs are pairs x, dy; the result dx = dy f'(x), by the framework's autodiff
  --abi      the inputs and results are bfloat16 or binary16 bits (2 bytes each), the
             framework's tensors of that dtype

A callable takes a one-dimensional NumPy array (float32, or ml_dtypes.bfloat16 / numpy.float16
with --abi; with --backward two arrays, x and dy) and returns an array of the same shape and
dtype (anything numpy.asarray takes: a torch tensor, a JAX array); its arguments are valid
during the call only (serving, they are filled again for the next request). One thread per framework;
the frameworks' defaults otherwise. A failure (an exception, a result of the wrong shape or
dtype, a framework that does not load) is one line on stderr and on the diagnosis channel
(descriptor 4, when gelulab passes one), and exit status 3.
"""
import gc
import importlib.util
import os
import shlex
import struct
import sys
import time
import warnings

# one thread each (the sweep runs a worker per core; the benchmark times one core), before
# the frameworks load
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")


# a framework that forks at import (multiprocessing) warns that JAX is threaded: not ours to say
warnings.filterwarnings("ignore", message=r".*os\.fork\(\) was called")


def quiet_import(name):
    """import name with descriptor 2 on /dev/null: TensorFlow's C++ start-up logs each process
    (absl's 'All log messages before...', oneDNN's notice) whatever TF_CPP_MIN_LOG_LEVEL says"""
    saved, null = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    try:
        return importlib.import_module(name)
    finally:
        os.dup2(saved, 2)
        os.close(saved), os.close(null)


class Failure(Exception):
    """One line for the user: what went wrong, no traceback"""


def first_line(e):
    """An exception's message, its first line"""
    return str(e).splitlines()[0] if str(e) else ""


def fail(msg):
    line = msg.replace("\n", " ")[:400]
    try:  # the diagnosis channel, when gelulab passes one: it reports the line
        os.fstat(4)
        os.write(4, (line + "\n").encode())
    except OSError:
        sys.stderr.write(f"py_eval: {line}\n")
    sys.exit(3)


# ---- the frameworks: each builder(abi, backward) returns (to_native, call, to_numpy) ----
# to_native: NumPy inputs (x, or x and dy) to the framework's tensors; call: the framework's
# call as its users make it, synchronised; to_numpy: its result as a NumPy array.

def np_dtype(abi):
    import numpy as np
    if abi == "f32":
        return np.float32
    if abi == "f16":
        return np.float16
    import ml_dtypes
    return ml_dtypes.bfloat16


def tensorflow(approximate, xla):
    def build(abi, backward):
        if "jax" not in sys.modules:  # TF Lite's utilities import JAX when it is installed (it is
            sys.modules["jax"] = None  # here: 0.4 s a start); tf.nn.gelu never uses it
        tf = quiet_import("tensorflow")
        if sys.modules.get("jax", 0) is None:
            del sys.modules["jax"]
        tf.get_logger().setLevel("ERROR")  # not a retracing warning per new length (XLA)
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)

        def fwd(x):
            return tf.nn.gelu(x, approximate=approximate)

        def bwd(x, dy):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.nn.gelu(x, approximate=approximate)
            return tape.gradient(y, x, output_gradients=dy)
        f = bwd if backward else fwd
        if xla:
            f = tf.function(f, jit_compile=True)
        return (lambda *a: [tf.constant(v) for v in a]), (lambda a: f(*a)), (lambda y: y.numpy())
    return build


def jax_gelu(approximate):
    def build(abi, backward):
        import jax
        import numpy as np

        def fwd(x):
            return jax.nn.gelu(x, approximate=approximate)

        def bwd(x, dy):
            return jax.vjp(fwd, x)[1](dy)[0]
        f = jax.jit(bwd if backward else fwd)
        return ((lambda *a: [jax.device_put(v) for v in a]),
                (lambda a: f(*a).block_until_ready()), (lambda y: np.asarray(y)))
    return build


def onnx_model(op, domain, attrs, elem):
    """A one-node ONNX model, written here (a few protobuf fields: no onnx package)"""
    def varint(v):
        out = bytearray()
        while True:
            b = v & 0x7F
            v >>= 7
            out.append(b | (0x80 if v else 0))
            if not v:
                return bytes(out)

    def key(field, wire):
        return varint(field << 3 | wire)

    def integer(field, v):
        return key(field, 0) + varint(v)

    def blob(field, b):
        return key(field, 2) + varint(len(b)) + b

    def text(field, s):
        return blob(field, s.encode())

    def attribute(name, v):  # AttributeProto: name 1, f 2, s 4, type 20 (FLOAT 1, STRING 3)
        if isinstance(v, float):
            return text(1, name) + key(2, 5) + struct.pack("<f", v) + integer(20, 1)
        return text(1, name) + text(4, v) + integer(20, 3)

    def value_info(name):  # ValueInfoProto: a tensor of elem and one dimension "N"
        dim = blob(1, text(2, "N"))
        return text(1, name) + blob(2, blob(1, integer(1, elem) + blob(2, dim)))
    node = (text(1, "X") + text(2, "Y") + text(3, "gelu") + text(4, op) +
            b"".join(blob(5, attribute(k, v)) for k, v in attrs) + text(7, domain))
    graph = blob(1, node) + text(2, "g") + blob(11, value_info("X")) + blob(12, value_info("Y"))
    opsets = blob(8, text(1, "") + integer(2, 20)) + blob(8, text(1, "com.microsoft") + integer(2, 1))
    return integer(1, 9) + text(2, "gelulab") + blob(7, graph) + opsets


def onnxruntime_op(op, domain="", attrs=()):
    def build(abi, backward):
        import onnxruntime as ort
        if backward:
            raise Failure("ONNX Runtime's inference package has no gradient of Gelu")
        so = ort.SessionOptions()
        so.intra_op_num_threads = so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        elem = {"f32": 1, "f16": 10, "bf16": 16}[abi]
        s = ort.InferenceSession(onnx_model(op, domain, attrs, elem), so,
                                 providers=["CPUExecutionProvider"])
        return (lambda x: x), (lambda x: s.run(None, {"X": x})[0]), (lambda y: y)
    return build


def openvino_gelu(mode):
    def build(abi, backward):
        import openvino as ov
        import openvino.opset13 as ops
        if backward:
            raise Failure("OpenVINO's runtime has no gradients")
        t = {"f32": ov.Type.f32, "f16": ov.Type.f16, "bf16": ov.Type.bf16}[abi]
        p = ops.parameter([-1], t)
        config = {"INFERENCE_NUM_THREADS": 1}  # the rest as it comes (precision hint included)
        compiled = ov.Core().compile_model(ov.Model([ops.gelu(p, approximation_mode=mode)], [p]),
                                           "CPU", config)
        req = compiled.create_infer_request()

        def call(x):
            req.infer({0: x})
            return req.get_output_tensor(0)
        return (lambda x: x), call, (lambda y: y.data.copy())
    return build


# name -> (library, builder, how a user's call reaches it)
PEERS = {
    "tf-2.21-gelu": ("tensorflow", tensorflow(False, False), "tf.nn.gelu(x) eager"),
    "tf-2.21-gelu-tanh": ("tensorflow", tensorflow(True, False), "tf.nn.gelu(x, approximate=True) eager"),
    "tf-2.21-gelu-xla": ("tensorflow", tensorflow(False, True), "tf.function(tf.nn.gelu, jit_compile=True)"),
    "tf-2.21-gelu-tanh-xla": ("tensorflow", tensorflow(True, True),
                              "tf.function(lambda x: tf.nn.gelu(x, approximate=True), jit_compile=True)"),
    "jax-0.12-gelu-tanh": ("jax", jax_gelu(True), "jax.nn.gelu(x) (approximate=True, the default), jitted"),
    "jax-0.12-gelu-exact": ("jax", jax_gelu(False), "jax.nn.gelu(x, approximate=False), jitted"),
    "ort-1.31-gelu": ("onnxruntime", onnxruntime_op("Gelu", attrs=[("approximate", "none")]),
                      "ai.onnx Gelu (opset 20), approximate=none"),
    "ort-1.31-gelu-tanh": ("onnxruntime", onnxruntime_op("Gelu", attrs=[("approximate", "tanh")]),
                           "ai.onnx Gelu (opset 20), approximate=tanh"),
    "ort-1.31-ms-gelu": ("onnxruntime", onnxruntime_op("Gelu", "com.microsoft"), "com.microsoft Gelu"),
    "ort-1.31-fastgelu": ("onnxruntime", onnxruntime_op("FastGelu", "com.microsoft"), "com.microsoft FastGelu"),
    "ort-1.31-quickgelu": ("onnxruntime", onnxruntime_op("QuickGelu", "com.microsoft", [("alpha", 1.702)]),
                           "com.microsoft QuickGelu, alpha 1.702"),
    "openvino-2026.4-gelu": ("openvino", openvino_gelu("erf"),
                             "Gelu (approximation_mode=erf) on the CPU plug-in, its defaults"),
    "openvino-2026.4-gelu-tanh": ("openvino", openvino_gelu("tanh"),
                                  "Gelu (approximation_mode=tanh) on the CPU plug-in, its defaults"),
}
# library -> its package (--version reads the package's metadata)
LIBRARIES = {"tensorflow": "tensorflow-cpu", "jax": "jax", "onnxruntime": "onnxruntime",
             "openvino": "openvino"}


def callable_builder(spec):
    """FILE.py:FUNC as a builder: NumPy in, NumPy out"""
    path, sep, func = spec.rpartition(":")
    if not sep or not path or not func:
        raise Failure(f"--callable {spec}: give FILE.py:FUNCTION")
    if not os.path.isfile(path):
        raise Failure(f"--callable {spec}: no file {path}")

    def build(abi, backward):
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        mod_spec = importlib.util.spec_from_file_location("gelulab_user_kernel", path)
        mod = importlib.util.module_from_spec(mod_spec)
        try:
            mod_spec.loader.exec_module(mod)
        except Exception as e:  # noqa: BLE001 (the user's module: anything)
            raise Failure(f"importing {path} raised {type(e).__name__}: {e}")
        f = getattr(mod, func, None)
        if not callable(f):
            raise Failure(f"{path} has no callable {func}")
        return (lambda *a: a), (lambda a: f(*a)), (lambda y: y)
    return build


# ---- the protocol ----

def read_exactly(n, into=None):
    """n bytes of stdin read into one buffer, or None where stdin ends before the first: into
    (a bytearray of at least n bytes; its first n as a memoryview) or a new bytearray (a 16
    Mi-float request is 64 MB: no copies)"""
    buf = bytearray(n) if into is None else into
    view, got = memoryview(buf)[:n], 0
    while got < n:
        r = sys.stdin.buffer.readinto(view[got:])
        if not r:
            if got:
                raise Failure(f"stdin ended inside a request ({got} of {n} bytes)")
            return None
        got += r
    return buf if into is None else view


class Kernel:
    def __init__(self, name, build, abi, backward):
        self.name, self.abi, self.backward = name, abi, backward
        self.width = 2 if abi != "f32" else 4
        try:
            self.to_native, self.call, self.to_numpy = build(abi, backward)
        except Failure:
            raise
        except Exception as e:  # noqa: BLE001 (a framework's error, whatever its class)
            raise Failure(f"{name}: {type(e).__name__}: {first_line(e)}")
        self.dtype = np_dtype(abi)
        self.kept = None  # the input arrays that inputs(reuse=True) fills

    def inputs(self, data, reuse=False):
        """The request's inputs as arrays of the kernel's dtype (x, or x and dy), copies of its
        bytes: new arrays, or (reuse, when serving) views of arrays kept per kernel and filled
        again by its next request, which is read only after this one's answer is written: no
        new pages to clear for each request"""
        import numpy as np
        per = self.width * (2 if self.backward else 1)
        if len(data) % per:
            raise Failure(f"{len(data)} bytes of input: not whole {'pairs' if self.backward else 'values'}")
        v = np.frombuffer(data, dtype="<u2" if self.width == 2 else "<f4").view(self.dtype)
        parts = (v[0::2], v[1::2]) if self.backward else (v,)
        if not reuse:
            return tuple(p.copy() for p in parts)
        n = len(parts[0])
        if self.kept is None or len(self.kept[0]) < n:
            self.kept = [np.empty(n, self.dtype) for _ in parts]
        out = tuple(k[:n] for k in self.kept)
        for o, p in zip(out, parts):
            np.copyto(o, p)
        return out

    def native(self, data):
        return self.to_native(*self.inputs(data))

    def evaluate(self, data, reuse=False):
        """The results on the request's inputs: a memoryview of the result array's bytes (b""
        for none), to be written before the next request is read (the result may share memory
        with the kept inputs: a callable may return its input)"""
        import numpy as np
        args = self.inputs(data, reuse)
        n = len(args[0])
        if n == 0:
            return b""
        try:
            y = np.asarray(self.to_numpy(self.call(self.to_native(*args))))
        except Failure:
            raise
        except Exception as e:  # noqa: BLE001
            raise Failure(f"raised {type(e).__name__} on {n} inputs: {first_line(e)}")
        if y.shape != (n,):
            raise Failure(f"returned shape {y.shape} for inputs of shape ({n},)")
        if y.dtype != np.dtype(self.dtype):
            raise Failure(f"returned {y.dtype} for {np.dtype(self.dtype)} inputs")
        return np.ascontiguousarray(y).view("<u2" if self.width == 2 else "<f4").data


def protocol_out():
    """The protocol's stdout, kept apart: descriptor 1 becomes stderr, so that what a kernel or a
    framework prints (print(), a C library's stdout) cannot fall into the results"""
    out = os.fdopen(os.dup(1), "wb")
    sys.stdout.flush()
    os.dup2(2, 1)
    return out


def requests(reuse=False):
    """The requests on stdin, each a little-endian uint64 byte count and that many bytes: the
    bytes, until stdin ends; reuse: each in one buffer kept for the next (its memoryview, valid
    until the next request is read), not a new one"""
    buf = bytearray(0)
    while True:
        hdr = read_exactly(8)
        if hdr is None:
            return
        (nbytes,) = struct.unpack("<Q", hdr)
        if reuse and len(buf) < nbytes:
            buf = bytearray(nbytes)
        data = read_exactly(nbytes, buf if reuse else None) if nbytes else b""
        if data is None:
            raise Failure(f"stdin ended inside a request (0 of {nbytes} bytes)")
        yield data


def kernel_named(kernels, spec):
    """The kernel that the arguments spec name, built on first use: one process serves or times
    all of a library's peers"""
    if spec not in kernels:
        kernels[spec] = kernel_of(shlex.split(spec), "plain")[0]
    return kernels[spec]


def freeze_built():
    """A serving process's objects so far (the framework's modules, a kernel just built) out of
    the cyclic collector's walk, its garbage collected first: the collections that requests
    bring about then walk only what the requests made"""
    gc.collect()
    gc.freeze()


def serve(k):
    out = protocol_out()
    freeze_built()
    for data in requests(reuse=True):
        out.write(k.evaluate(data, reuse=True))
        out.flush()


def serve_many():
    """Every kernel of a library in one process: each request leads with the arguments that
    name its kernel (a uint64 length, the text)"""
    out, kernels = protocol_out(), {}
    for data in requests(reuse=True):
        if len(data) < 8:
            raise Failure(f"a request of {len(data)} bytes: the kernel's arguments first")
        (speclen,) = struct.unpack("<Q", data[:8])
        spec = bytes(data[8:8 + speclen]).decode()
        if spec not in kernels:
            kernel_named(kernels, spec)
            freeze_built()
        out.write(kernels[spec].evaluate(data[8 + speclen:], reuse=True))
        out.flush()


def time_calls():
    out, kernels, tensors, kept = protocol_out(), {}, {}, {}
    for data in requests():
        if len(data) < 24:
            raise Failure(f"a timing request of {len(data)} bytes: a uint64 count of calls, the "
                          "size and the peer's arguments first")
        calls, n, speclen = struct.unpack("<QQQ", data[:24])
        view = memoryview(data)
        spec, inputs = bytes(view[24:24 + speclen]).decode(), view[24 + speclen:]
        k = kernel_named(kernels, spec)
        kind = (k.abi, k.backward, n)  # the inputs' kind: every peer of it gets the same bytes
        try:
            if inputs and n > BIG:  # kept, once per kind: a peer's tensor is made from them
                kept[kind] = inputs
            if inputs or ((spec, n) not in tensors and kind in kept):
                if n > BIG:  # one tensor above 2^20 elements at a time (16 Mi: 64 MB each)
                    for key in [key for key in tensors if key[1] > BIG]:
                        del tensors[key]
                tensors[spec, n] = k.native(inputs or kept[kind])
                k.call(tensors[spec, n])  # once, untimed: compilation, first-call allocations
            elif (spec, n) not in tensors and calls:
                raise Failure(f"a timing request for {spec} at n = {n} before its inputs")
            # the collector off while timed, as timeit does: its pauses depend on all that the
            # process holds (every peer's tensors), not on the call timed
            gc.disable()
            try:
                t0 = time.perf_counter()
                for _ in range(calls):
                    k.call(tensors[spec, n])
                t = time.perf_counter() - t0
            finally:
                gc.enable()
        except Failure:
            raise
        except Exception as e:  # noqa: BLE001 (a framework's error, whatever its class)
            raise Failure(f"{spec} raised {type(e).__name__} at n = {n}: {first_line(e)}")
        out.write(struct.pack("<d", t))
        out.flush()


# the timing process keeps each peer's tensors of up to BIG elements, one above (the last), and
# the inputs above BIG of each kind and size (a 16 Mi-float tensor is made from them, not sent)
BIG = 1 << 20


USAGE = __doc__.split("\n\n")[1]


def kernel_of(argv, mode):
    """The kernel that evaluator arguments name, and the mode they ask for"""
    abi, backward, name, spec = "f32", False, None, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--serve", "--time"):
            mode = a[2:]
        elif a == "--backward":
            backward = True
        elif a == "--abi" and i + 1 < len(argv) and argv[i + 1] in ("f32", "bf16", "f16"):
            abi = argv[i + 1]
            i += 1
        elif a == "--callable" and i + 1 < len(argv):
            spec = argv[i + 1]
            i += 1
        elif not a.startswith("-") and name is None and a in PEERS:
            name = a
        else:
            raise Failure(f"unknown argument '{a}' ({USAGE.strip().splitlines()[0].strip()};"
                          f" PEER: one of --list)")
        i += 1
    if (name is None) == (spec is None):
        raise Failure("give one PEER (py_eval.py --list) or --callable FILE.py:FUNC")
    build = PEERS[name][1] if name else callable_builder(spec)
    return Kernel(name or spec, build, abi, backward), mode


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(__doc__)
        return 0
    if argv[:1] in (["--serve-many"], ["--time"]) and len(argv) <= 2:
        if len(argv) == 2 and argv[1] not in LIBRARIES:  # the library the process serves
            raise Failure(f"{argv[0]} {argv[1]}: one of {', '.join(LIBRARIES)}")
        serve_many() if argv[0] == "--serve-many" else time_calls()
        return 0
    if argv == ["--list"]:
        for n, (lib, _, path) in PEERS.items():
            print(f"{n}\t{lib}\t{path}")
        return 0
    if len(argv) == 2 and argv[0] == "--version":
        dist = LIBRARIES.get(argv[1])
        if not dist:
            raise Failure(f"--version {argv[1]}: one of {', '.join(LIBRARIES)}")
        import importlib.metadata
        try:
            print(importlib.metadata.version(dist))
        except importlib.metadata.PackageNotFoundError:
            raise Failure(f"{dist} is not installed in {sys.prefix}")
        return 0
    k, mode = kernel_of(argv, "plain")
    if mode == "serve":
        serve(k)
    else:
        out = protocol_out()
        out.write(k.evaluate(sys.stdin.buffer.read()))
        out.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as e:
        fail(str(e))
    except BrokenPipeError:
        sys.exit(3)
    except KeyboardInterrupt:
        sys.exit(130)
