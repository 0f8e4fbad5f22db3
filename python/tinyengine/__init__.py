"""tinyengine - TinyEngine's compiler library from Python.

Profile int8 .tflite models (memory plan, MACs, flash, estimated latency per
layer) fast enough for an architecture-search loop, and compile them to C:

    import tinyengine
    report = tinyengine.profile("model.tflite", target="cortex-m4")
    print(report["peak_sram_bytes"], report["estimated_latency_ms"])
    tinyengine.compile("model.tflite", "out", name="net", target="cortex-m4")

`profile` returns the JSON object of `tinyengine profile --json` as a dict
(schema: docs/profile-json.md).  Errors raise TinyEngineError whose message
is the compiler's one line.  Options (keyword arguments, as the command
line's options):
    target             "generic" (default), "cortex-m0plus", "cortex-m4",
                       "cortex-m7", "x86-64-v3"
    int8_io            True: drop a leading QUANTIZE / trailing DEQUANTIZE
    sram_limit         fail when the arena needs more bytes: an int, or a
                       string with a k/K or m/M suffix ("64K")
    patch              "off" (default), "auto" or "K:HxW" (patch-based stage)
    max_recompute      with patch="auto": extra instructions allowed (the
                       target's cost model), in percent (default 200)
    memory_regions     RAM regions, as --memory-region: a list of "NAME=BYTES"
                       (["DTCM=128K", "SRAM=320K"]) or one comma-separated
                       string; the hottest buffers go in the first
    mhz, cpi           clock and cycles per instruction of the latency
                       estimate (profile only; defaults 120 and 1)
$TINYENGINE_LIBRARY, when set, names the shared library to load instead of
the package's own libtinyengine.so.
"""
import ctypes
import json
import os

__all__ = ["TinyEngineError", "profile", "compile", "version"]

_ERR_SIZE = 1024


class TinyEngineError(Exception):
    """The compiler refused the model or an option; str() is its message."""


def _load():
    path = os.environ.get("TINYENGINE_LIBRARY")
    if not path:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libtinyengine.so")
        if not os.path.exists(path):
            raise ImportError("tinyengine: %s is missing; install the package from the "
                              "repository: pip install ./python" % path)
    lib = ctypes.CDLL(path)
    c_char_p, c_size_t, c_double, c_int = ctypes.c_char_p, ctypes.c_size_t, ctypes.c_double, ctypes.c_int
    c_ull, c_void_p = ctypes.c_ulonglong, ctypes.c_void_p
    lib.tepy_profile_json.restype = c_void_p
    lib.tepy_profile_json.argtypes = [c_char_p, c_size_t, c_char_p, c_char_p, c_int, c_ull,
                                      c_char_p, c_double, c_char_p, c_double, c_double, c_char_p,
                                      c_size_t]
    lib.tepy_compile.restype = c_void_p
    lib.tepy_compile.argtypes = [c_char_p, c_size_t, c_char_p, c_char_p, c_int, c_ull, c_char_p,
                                 c_double, c_char_p, c_char_p, c_size_t]
    lib.tepy_generated_text.restype = c_void_p
    lib.tepy_generated_text.argtypes = [c_void_p, c_int, ctypes.POINTER(c_size_t)]
    lib.te_generated_free.restype = None
    lib.te_generated_free.argtypes = [c_void_p]
    lib.te_free.restype = None
    lib.te_free.argtypes = [c_void_p]
    lib.te_version.restype = c_char_p
    lib.te_version.argtypes = []
    return lib


_lib = _load()


def version():
    """The library's version, e.g. "0.1.0"."""
    return _lib.te_version().decode()


def _model_bytes(model):
    """(image bytes, path or None) of a model given as bytes or a path."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model), None
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        try:
            with open(path, "rb") as f:
                return f.read(), path
        except OSError as e:
            raise TinyEngineError("%s: cannot read: %s" % (path, e.strerror)) from None
    raise TypeError("model: bytes or a path, not %s" % type(model).__name__)


def _bytes_option(value):
    """sram_limit as bytes: an int, or a string like "64K" / "1M"."""
    if isinstance(value, str):
        text, scale = value.strip(), 1
        if text[-1:] in ("k", "K"):
            text, scale = text[:-1], 1024
        elif text[-1:] in ("m", "M"):
            text, scale = text[:-1], 1024 * 1024
        if not text.isdigit():
            raise TinyEngineError("sram_limit '%s' is not a byte count like 65536 or 64K" % value)
        return int(text) * scale
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TinyEngineError("sram_limit must be a byte count (int >= 0 or a string like 64K)")
    return value


_OPTIONS = ("int8_io", "sram_limit", "patch", "max_recompute", "memory_regions")


def _config(target, options, allowed):
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError("unknown option(s) %s (allowed: target, %s)"
                        % (", ".join(unknown), ", ".join(allowed)))

    def text(v):
        return None if v is None else str(v).encode()

    recompute = options.get("max_recompute")
    if recompute is None:
        recompute_pct = 0.0            # the library's default (20 %)
    else:
        recompute_pct = float(recompute) if float(recompute) > 0 else -1.0  # -1: none
    sram = options.get("sram_limit")
    regions = options.get("memory_regions")
    if regions is not None and not isinstance(regions, str):
        regions = ",".join(str(r) for r in regions)
    return [text(target), 1 if options.get("int8_io") else 0,
            _bytes_option(sram) if sram is not None else 0, text(options.get("patch")),
            recompute_pct, text(regions)]


def _positive(name, value):
    if value is None:
        return 0.0
    if not float(value) > 0:
        raise TinyEngineError("%s takes a positive number" % name)
    return float(value)


def profile(model, target=None, **options):
    """The profile report of a model (path or bytes) as a dict: the JSON of
    `tinyengine profile --json` (docs/profile-json.md)."""
    data, path = _model_bytes(model)
    cfg = _config(target, options, _OPTIONS + ("mhz", "cpi"))
    err = ctypes.create_string_buffer(_ERR_SIZE)
    ptr = _lib.tepy_profile_json(data, len(data), path.encode() if path else None, *cfg,
                                 _positive("mhz", options.get("mhz")),
                                 _positive("cpi", options.get("cpi")), err, _ERR_SIZE)
    if not ptr:
        raise TinyEngineError(err.value.decode(errors="replace") or "out of memory")
    try:
        return json.loads(ctypes.string_at(ptr).decode())
    finally:
        _lib.te_free(ptr)


def _default_name(path):
    base = os.path.basename(path) if path else "model"
    stem, dot, _ = base.rpartition(".")
    base = stem if dot and stem else base
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in base)
    return "_" + name if not name or name[0].isdigit() else name


def compile(model, out_dir, name=None, target=None, **options):
    """Compiles a model (path or bytes) to out_dir/NAME.h and out_dir/NAME.c,
    as `tinyengine compile` does; returns {"header": path, "source": path}.
    name: the C prefix (default: the model's file name, or "model")."""
    data, path = _model_bytes(model)
    if name is None:
        name = _default_name(path)
    elif not (name.isidentifier() and name.isascii()):
        raise TinyEngineError("name '%s' is not a valid C identifier" % name)
    cfg = _config(target, options, _OPTIONS)
    err = ctypes.create_string_buffer(_ERR_SIZE)
    gen = _lib.tepy_compile(data, len(data), name.encode(), *cfg, err, _ERR_SIZE)
    if not gen:
        raise TinyEngineError(err.value.decode(errors="replace") or "out of memory")
    try:
        texts = []
        for which in (0, 1):
            n = ctypes.c_size_t()
            ptr = _lib.tepy_generated_text(gen, which, ctypes.byref(n))
            texts.append(ctypes.string_at(ptr, n.value))
    finally:
        _lib.te_generated_free(gen)
    os.makedirs(out_dir, exist_ok=True)
    files = {"header": os.path.join(out_dir, name + ".h"),
             "source": os.path.join(out_dir, name + ".c")}
    for key, text in zip(("header", "source"), texts):
        with open(files[key], "wb") as f:
            f.write(text)
    return files
