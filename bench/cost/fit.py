#!/usr/bin/env python3
"""fit.py - the fitting half of bench/calibrate_cost.sh (plain python3, no numpy).

Reads the measurements in WORK/<cost model>/<model>/ (profile.json from
`tinyengine profile --json`, m.c from `tinyengine compile`, counts.txt with one
instruction count per layer-hook interval, size.txt of the compiled model),
fits per cost model and per (operator, kernel variant) a non-negative linear
function of the layer's features (instructions, and bytes of its constants),
per kernel family its code bytes, and writes:
  - the C table src/api/cost_table.c (coefficients and code bytes),
  - the results section of docs/cost-model.md (between the markers),
  - a summary on stdout.
Errors are reported in-sample (the final table on all layers) and
leave-one-model-out for the shared models (refit without any layer of the
model, then predict it): the honest figure for a model the table never saw.
"""
import argparse
import datetime
import glob
import json
import math
import os
import re
import sys

FEATURES = ["macs", "window", "taps", "out", "in", "rows", "calls"]
# which features each operator's estimate may use, most important first (the
# rest stay 0); a group of n layers uses at most max(1, n // 2) of them
OP_FEATURES = {
    "CONV_2D": ["macs", "window", "taps", "out", "rows", "calls"],
    "DEPTHWISE_CONV_2D": ["macs", "out", "in", "rows", "calls"],
    "FULLY_CONNECTED": ["macs", "out", "in", "rows", "calls"],
    "TRANSPOSE_CONV": ["macs", "in", "out", "rows", "calls"],
    "AVERAGE_POOL_2D": ["window", "out", "rows", "calls"],
    "MAX_POOL_2D": ["window", "out", "rows", "calls"],
    "MEAN": ["in", "out", "rows", "calls"],
    "SOFTMAX": ["in", "rows", "calls"],
    "LOG_SOFTMAX": ["in", "rows", "calls"],
    "*": ["macs", "window", "out", "in", "rows", "calls", "taps"],
}
DEFAULT_FEATURES = ["out", "in", "rows", "calls"]
WEIGHT_EXP = 1.75  # layer weight 1 / exact^WEIGHT_EXP (2: relative errors, 0: absolute)
HOOK_OVERHEAD = 6  # instructions of one layer-hook call (argument set-up, call, return)
MIN_SAMPLES = 2


# ---------------------------------------------------------------- reading

def read_counts(path):
    out = []
    with open(path) as f:
        for line in f:
            m = re.match(r"interval (\d+) (\d+)", line)
            if m:
                out.append(int(m.group(2)))
    return out


CTYPE_BYTES = {"int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4,
               "uint32_t": 4, "float": 4, "int64_t": 8, "uint64_t": 8, "double": 8}


def parse_generated(path):
    """Hook order [(op, output)], the kernel each op's code calls and the
    bytes of the constant arrays each op uses first."""
    text = open(path).read()
    sizes = {}
    for ctype, name, n in re.findall(r"^static const (\w+) (\w+)\[(\d+)\]", text, re.M):
        sizes[name] = CTYPE_BYTES.get(ctype, 4) * int(n)
    body = text[text.find("_invoke(void)"):]
    # an op's call in a function of its own (te_emit_outlined_call): its body
    # stands for the call
    outlined = dict(re.findall(r"^\w+ void (\w+)\(void\)\n\{\n(.*?)^\}", text, re.M | re.S))
    body = re.sub(r"\b(\w+)\(\);", lambda m: outlined.get(m.group(1), m.group(0)), body)
    # TE_LAYER_SLICE: an output written straight into a concatenation
    hooks = [(int(a), int(b))
             for a, b in re.findall(r"TE_LAYER_(?:DONE|SLICE)\((\d+), (\d+),", body)]
    kernels, consts, seen, cols = {}, {}, set(), {}
    parts = re.split(r"/\* op (\d+): [A-Z0-9_]+ \*/", body)
    for i in range(1, len(parts), 2):
        block = re.split(r"TE_LAYER_(?:DONE|SLICE)", parts[i + 1])[0]
        m = re.search(r"\b(te_[a-z0-9_]+)\s*\(", block)
        op = int(parts[i])
        # an always-inlined copy of a kernel (te_..._inl) is that kernel
        kernels[op] = re.sub(r"_inl$", "", m.group(1)) if m else "view"
        cols[op] = int(".cols = 1" in block)
        used = [n for n in re.findall(r"\b\w+\b", block) if n in sizes and n not in seen]
        seen.update(used)
        consts[op] = sum(sizes[n] for n in set(used))
    return hooks, kernels, consts, cols


def flash_of(size_path):
    total = 0
    with open(size_path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 2 and re.match(r"\.(text|rodata|data)", p[0]) and p[1].isdigit():
                total += int(p[1])
    return total


def const_features(l, kernel, out_shape):
    """Constant input bytes (as te_cost_const_bytes pads them), channels, 1."""
    units = float(out_shape[-1] if out_shape else 1)
    cin = float(l["weights_bytes"])
    if kernel == "te_fully_connected_s8_dsp" and units > 0:  # rows padded to 8
        cin *= math.ceil(units / 8) * 8 / units
    return [cin, units, 1.0]


def load_model(d):
    match = os.path.join(d, "match")
    if os.path.exists(match) and open(match).read().strip() != "match":
        raise ValueError("outputs differ from the golden ones: left out")
    prof = json.load(open(os.path.join(d, "profile.json")))
    counts = read_counts(os.path.join(d, "counts.txt"))
    hooks, kernels, consts, cols = parse_generated(os.path.join(d, "m.c"))
    if len(counts) < len(hooks):
        raise ValueError("%d intervals for %d hooks" % (len(counts), len(hooks)))
    measured = {}
    for (op, _), n in zip(hooks, counts):
        measured[op] = measured.get(op, 0) + max(n - HOOK_OVERHEAD, 0)
    layers = []
    for l in prof["layers"]:
        if l["index"] not in measured:
            continue
        x = [float(l["features"].get(k, 0)) for k in FEATURES]
        out = l["outputs"][0]["shape"] if l["outputs"] else []
        layers.append({
            "index": l["index"], "op": l["op"], "predicted": l["kernel"],
            "kernel": kernels.get(l["index"], "view"), "cols": cols.get(l["index"], 0),
            "x": x, "y": float(measured[l["index"]]),
            # constants: bytes of the constant inputs, output channels -> bytes in flash
            "cx": const_features(l, kernels.get(l["index"], "view"), out),
            "cy": float(consts.get(l["index"], 0)),
        })
    size = os.path.join(d, "size.txt")
    return {
        "name": os.path.basename(d), "set": open(os.path.join(d, "set")).read().strip(),
        "layers": layers, "total": float(sum(l["y"] for l in layers)),
        "flash": flash_of(size) if os.path.exists(size) else None,
        "const_bytes": prof["const_bytes"], "macs": prof["macs"],
    }


SKIPPED = []


def load_patched(work, cm):
    """[(model, exact total with --patch auto, its profile's layers)]."""
    out = []
    for d in sorted(glob.glob(os.path.join(work, cm, "patched", "*", ""))):
        try:
            bench = open(os.path.join(d, "bench.txt")).read()
            exact = int(re.search(r"^instructions: *(\d+)", bench, re.M).group(1))
            prof = json.load(open(os.path.join(d, "profile.json")))
        except (OSError, AttributeError, ValueError):
            continue
        out.append((os.path.basename(d.rstrip("/")), exact, prof["estimated_instructions"],
                    prof.get("cost_table", "?")))
    return out


def load_cost_model(work, cm):
    models = []
    for d in sorted(glob.glob(os.path.join(work, cm, "*", ""))):
        d = d.rstrip("/")
        if not os.path.exists(os.path.join(d, "counts.txt")):
            continue
        try:
            models.append(load_model(d))
        except (ValueError, OSError, KeyError) as e:
            print("  skip %s: %s" % (d, e), file=sys.stderr)
            SKIPPED.append("%s %s: %s" % (cm, os.path.basename(d), e))
    return models


def families(runtime):
    """Kernel families: the runtime files te_<family>.c."""
    files = glob.glob(os.path.join(runtime, "te_*.c")) + glob.glob(os.path.join(runtime, "*", "te_*.c"))
    return sorted(os.path.basename(f)[3:-2] for f in files)


def family_of(kernel, fams):
    """The longest family f with the kernel named te_<f>_... (as te_cost_code_row)."""
    best = None
    for f in fams:
        if kernel.startswith("te_" + f + "_") and (best is None or len(f) > len(best)):
            best = f
    return best


# ---------------------------------------------------------------- fitting

def solve(a, b):
    """Solves the small dense system a x = b (Gauss-Jordan, partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    big = max([abs(v) for row in a for v in row] + [1e-300])
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-12 * big:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def lsq(a_rows, b, cols):
    """Least squares of a_rows[:, cols] x = b via the normal equations."""
    k = len(cols)
    ata = [[sum(r[cols[i]] * r[cols[j]] for r in a_rows) for j in range(k)] for i in range(k)]
    atb = [sum(r[cols[i]] * y for r, y in zip(a_rows, b)) for i in range(k)]
    for i in range(k):
        ata[i][i] *= 1 + 1e-10  # against exact collinearity
    return solve(ata, atb)


def nnls(rows, ys, ws, n):
    """Non-negative weighted least squares (Lawson-Hanson active set): min
    sum w (x.c - y)^2 with c >= 0.  Rows are scaled by sqrt(w) and columns by
    their norm so that the sizes of the features do not matter."""
    a = [[math.sqrt(w) * v for v in r] for r, w in zip(rows, ws)]
    b = [math.sqrt(w) * y for y, w in zip(ys, ws)]
    norm = [math.sqrt(sum(r[c] ** 2 for r in a)) for c in range(n)]
    a = [[r[c] / norm[c] if norm[c] > 0 else 0.0 for c in range(n)] for r in a]
    usable = [c for c in range(n) if norm[c] > 0]
    coef = [0.0] * n
    passive = []
    for _ in range(4 * n + 4):
        res = [y - sum(coef[c] * r[c] for c in range(n)) for r, y in zip(a, b)]
        g = [sum(r[c] * e for r, e in zip(a, res)) for c in range(n)]
        cand = [c for c in usable if c not in passive and g[c] > 1e-10 * math.sqrt(sum(e * e for e in b))]
        if not cand:
            break
        passive.append(max(cand, key=lambda c: g[c]))
        while passive:
            z = lsq(a, b, passive)
            if z is None:
                usable.remove(passive.pop())
                break
            if all(v > 0 for v in z):
                coef = [0.0] * n
                for c, v in zip(passive, z):
                    coef[c] = v
                break
            # step towards z until the first coefficient reaches zero, drop it
            alpha = min(coef[c] / (coef[c] - v) for c, v in zip(passive, z) if v <= 0)
            for c, v in zip(passive, z):
                coef[c] += alpha * (v - coef[c])
            passive = [c for c in passive if coef[c] > 1e-15]
            for c in range(n):
                if c not in passive:
                    coef[c] = 0.0
    return [coef[c] / norm[c] if norm[c] > 0 else 0.0 for c in range(n)]


def fit_group(layers, op):
    names = OP_FEATURES.get(op, DEFAULT_FEATURES)
    names = names[:max(1, len(layers) // 2)]
    idx = [FEATURES.index(f) for f in names]
    rows = [[l["x"][i] for i in idx] for l in layers]
    ys = [l["y"] for l in layers]
    ws = [1.0 / max(y, 1.0) ** WEIGHT_EXP for y in ys]
    sub = nnls(rows, ys, ws, len(idx))
    coef = [0.0] * len(FEATURES)
    for i, v in zip(idx, sub):
        coef[i] = v
    return coef


def cost_key(op, kernel, x, cols=0):
    """The 1x1 class of a convolution kernel (taps == outputs) and the column
    mode of a DSP depthwise kernel (`.cols = 1`), as te_cost_row."""
    if op == "CONV_2D" and x[FEATURES.index("taps")] == x[FEATURES.index("out")]:
        return kernel + "/1x1"
    if cols:
        return kernel + "/cols"
    return kernel


SIBLING = {"cortex-m4": "armv7m-portable", "cortex-m7": "armv7m-portable",
           "x86-64-v3": "host"}
TABLES = {}  # cost model -> its table, for the sibling lookup


class Table(dict):
    """(op, kernel) -> row, knowing its cost model."""
    def __init__(self, model):
        dict.__init__(self)
        self.model = model


def lookup(table, op, kernel, x, cols=0):
    """The row the C code (te_cost_row) uses."""
    own = ((op, cost_key(op, kernel, x, cols)), (op, kernel), ("*", kernel))
    for key in own:
        if key in table:
            return table[key]
    sibling = TABLES.get(SIBLING.get(getattr(table, "model", ""), ""), {})
    for key in own:
        if key in sibling:
            return sibling[key]
    for key in ((op, "*"), ("*", "*")):
        if key in table:
            return table[key]
    return None


def predict(table, l):
    c = lookup(table, l["op"], l["predicted"], l["x"], l.get("cols", 0))
    if l["predicted"] == "view" or not c:
        return 0.0
    return max(sum(a * b for a, b in zip(c["coef"], l["x"])), 0.0)


def predict_const(table, l):
    c = lookup(table, l["op"], l["predicted"], l["x"], l.get("cols", 0))
    if l["predicted"] == "view":
        return 0.0
    k = c["const"] if c else [1.0, 8.0, 0.0]
    return max(sum(a * b for a, b in zip(k, l["cx"])), 0.0)


def fit_const(layers):
    """Flash bytes of the constants: per constant input byte, per channel, per call."""
    ys = [l["cy"] for l in layers]
    return nnls([l["cx"] for l in layers], ys, [1.0 / max(y, 1.0) for y in ys], 3)


def fit_table(models, exclude=None, model=""):
    """Rows per (op, kernel/1x1), (op, kernel), (any op, kernel) when several
    ops share the kernel, (op, any kernel) and (any, any)."""
    layers = [l for m in models if m["name"] != exclude for l in m["layers"] if l["kernel"] != "view"]
    groups = {}
    for l in layers:
        keys = [(l["op"], l["kernel"]), ("*", l["kernel"]), (l["op"], "*"), ("*", "*")]
        key = cost_key(l["op"], l["kernel"], l["x"], l.get("cols", 0))
        if key != l["kernel"]:
            keys.append((l["op"], key))
        for key in keys:
            groups.setdefault(key, []).append(l)
    table = Table(model)
    for key, ls in groups.items():
        ops = {l["op"] for l in ls}
        if key[0] == "*" and key[1] != "*" and len(ops) == 1:
            continue  # the (op, kernel) row says the same
        feature_op = ops.pop() if len(ops) == 1 else ("*" if key[1] == "*" else "")
        table[key] = {"coef": fit_group(ls, feature_op), "const": fit_const(ls), "samples": len(ls)}
    for key, ls in groups.items():
        if key in table:
            errs = [(predict_key(table[key], l) - l["y"]) / max(l["y"], 1.0) for l in ls]
            table[key]["err"] = 100.0 * math.sqrt(sum(e * e for e in errs) / len(errs))
    return table


def predict_key(entry, l):
    return max(sum(a * b for a, b in zip(entry["coef"], l["x"])), 0.0)


# ---------------------------------------------------------------- code bytes

def model_kernels(m, which):
    return {l[which] for l in m["layers"] if l[which] != "view"}


def fit_code(models, fams):
    """flash(model object) - its constant arrays = for every kernel variant it
    uses, bytes once + bytes per call (always-inlined kernels are copied into
    each call; a kernel called once is often inlined too) + base, by
    non-negative least squares over the models.  Each family also gets the
    mean of its variants, for variants calibrated later."""
    used = sorted({k for m in models for k in model_kernels(m, "kernel")})
    rows, ys = [], []
    for m in models:
        if not m["flash"]:
            continue
        calls = [l["kernel"] for l in m["layers"] if l["kernel"] != "view"]
        rows.append([1.0 if k in calls else 0.0 for k in used] +
                    [float(calls.count(k)) for k in used] + [1.0])
        ys.append(float(m["flash"] - sum(l["cy"] for l in m["layers"])))
    if len(rows) < 2:
        return {}, 0.0
    c = nnls(rows, ys, [1.0 / max(abs(y), 1.0) for y in ys], 2 * len(used) + 1)
    n = len(used)
    code = {k: (c[i], c[n + i]) for i, k in enumerate(used)}
    for f in fams:
        sizes = [v for k, v in code.items() if family_of(k, fams) == f]
        if sizes:
            code[f] = (sum(v[0] for v in sizes) / len(sizes), sum(v[1] for v in sizes) / len(sizes))
    return code, c[-1]


def code_row(code, kernel, fams):
    """As te_cost_code_row: the kernel's own row, else its family's."""
    if kernel in code:
        return kernel
    f = family_of(kernel, fams)
    return f if f in code else None


def flash_estimate(m, r):
    consts = sum(predict_const(r["table"], l) for l in m["layers"])
    rows = [code_row(r["code"], l["predicted"], r["families"]) for l in m["layers"]
            if l["predicted"] != "view"]
    code = sum(r["code"][k][0] for k in set(rows) if k) + sum(r["code"][k][1] for k in rows if k)
    return consts + code + r["base"]


def c_num(v):
    return "0" if v == 0 else "%.6g" % v


ROW_RE = re.compile(r'^    \{"([^"]*)", "([^"]*)", (TE_K_\w+), (NULL|"[^"]*"), \{([^}]*)\},\n'
                    r'     \{([^}]*)\}, (\d+), ([-0-9.]+)\},$', re.M)

# The kernel registry: C table rows name kernels by id (TE_K_<ID>), reports
# and the calibration by the name te_kernel_report_name gives (the C
# function without the _inl of an always-inline form).
KERNEL_IDS = {}    # report name -> "TE_K_<ID>"
KERNEL_NAMES = {}  # "TE_K_<ID>" -> report name


def read_registry(runtime):
    text = open(os.path.join(runtime, "te_kernels.def")).read()
    for m in re.finditer(r'^TE_KERNEL_DEF\((\w+),\s*(\w+)', text, re.M):
        name = m.group(2)[:-4] if m.group(2).endswith("_inl") else m.group(2)
        KERNEL_IDS[name] = "TE_K_" + m.group(1)
        KERNEL_NAMES["TE_K_" + m.group(1)] = name


def kernel_key(kid, row):
    """The calibration's key "<kernel>[/<row>]" or "*" of a C row."""
    if kid == "TE_K_ANY":
        return "*"
    name = KERNEL_NAMES[kid]
    return name if row == "NULL" else "%s/%s" % (name, row.strip('"'))


def c_kernel(key):
    """The C row's kernel id and row case of a key "<kernel>[/<row>]" or "*"."""
    if key == "*":
        return "TE_K_ANY, NULL"
    name, _, row = key.partition("/")
    if name not in KERNEL_IDS:
        raise SystemExit("fit.py: kernel %s is not in runtime/te_kernels.def" % name)
    return "%s, %s" % (KERNEL_IDS[name], '"%s"' % row if row else "NULL")


def read_kept(path, fitted):
    """The rows of the cost models not fitted in this run, as the table has
    them (--keep-others): {model: [coefficient row text]}; their coefficients
    also go into TABLES (sibling lookups)."""
    kept = {}
    for m in ROW_RE.finditer(open(path).read()):
        cm = m.group(1)
        if cm in fitted:
            continue
        kept.setdefault(cm, []).append(m.group(0))
        t = TABLES.setdefault(cm, Table(cm))
        t[(m.group(2), kernel_key(m.group(3), m.group(4)))] = {
            "coef": [float(v) for v in m.group(5).split(",")],
            "const": [float(v) for v in m.group(6).split(",")],
            "samples": int(m.group(7)), "err": float(m.group(8))}
    return kept


def write_table(path, results, date, kept=None):
    out = ["/* cost_table.c - coefficients of the cost model (cost_model.h): per cost model",
           " * and (operator, kernel variant), estimated instructions = sum of coefficient x",
           " * feature (macs, window, taps, out, in, rows, calls); \"*\" rows are the fallbacks.",
           " * GENERATED by bench/calibrate_cost.sh (bench/cost/fit.py) on %s; do not edit:" % date,
           " * rerun the script after changing kernels. */",
           '#include "cost_model.h"', "",
           'const char te_cost_table_date[] = "%s";' % date, "",
           "const te_cost_coef te_cost_table[] = {",
           "    /* cost model, operator, kernel, its case (te_cost_features.row) or NULL,",
           "     {macs, window, taps, out, in, rows, calls},",
           "     {const bytes per constant input byte, per output channel, per call},"
           " layers, RMS error % */"]
    for rows in (kept or {}).values():
        out += rows
    for cm, r in results.items():
        for (op, k), e in sorted(r["table"].items()):
            out.append('    {"%s", "%s", %s, {%s},\n     {%s}, %d, %.1f},' % (
                cm, op, c_kernel(k), ", ".join(c_num(v) for v in e["coef"]),
                ", ".join(c_num(v) for v in e["const"]), e["samples"], e.get("err", 0)))
    out += ["};",
            "const int te_cost_table_size = (int)(sizeof te_cost_table / sizeof te_cost_table[0]);",
            ""]
    # code bytes: runtime/te_kernel_code.def (tools/kernel_code.sh, measured);
    # the fitted code rows only serve the flash section of the report
    with open(path, "w") as f:
        f.write("\n".join(out))


def pct(est, exact):
    return 100.0 * (est - exact) / exact if exact else 0.0


def results_markdown(results, date):
    cms = list(results)
    md = ["Measured %s; coefficients in `src/api/cost_table.c`." % date, ""]
    if SKIPPED:
        md += ["Left out: " + "; ".join(SKIPPED) + ".", ""]
    md.append("### Whole models (shared models: not in the conformance set)")
    md.append("")
    md.append("Exact = instructions measured for the model's layers (sum over its operators); "
              "estimate = the cost table; error = (estimate - exact) / exact. *In-sample*: the "
              "table fitted on every layer (what ships); *held out*: refitted without any layer "
              "of that model.")
    md.append("")
    head = "| model | MACs |"
    sep = "|---|---:|"
    for cm in cms:
        head += " exact %s | estimate | error | held out |" % cm
        sep += "---:|---:|---:|---:|"
    md += [head, sep]
    names = sorted({m["name"] for r in results.values() for m in r["models"] if m["set"] == "model"})
    for n in names:
        cells, macs = [], ""
        for cm in cms:
            m = next((m for m in results[cm]["models"] if m["name"] == n), None)
            if not m:
                cells.append(" | | | ")
                continue
            macs = m["macs"]
            est = sum(predict(results[cm]["table"], l) for l in m["layers"])
            held = results[cm]["loo"].get(n)
            cells.append("%d | %d | %+.1f%% | %s" % (m["total"], est, pct(est, m["total"]),
                                                   "%+.1f%%" % held if held is not None else ""))
        md.append("| %s | %s | %s |" % (n, macs, " | ".join(cells)))
    md.append("")
    rows = [(cm, p) for cm in cms for p in results[cm].get("patched", [])]
    if rows:
        md.append("### Patch-based first stage (`--patch auto`)")
        md.append("")
        md.append("Exact = `tinyengine bench --patch auto` (whole inference); estimate = "
                  "`tinyengine profile --patch auto`, clone by clone, with the cost table it "
                  "was built with (refresh after a fit: rebuild, `calibrate_cost.sh "
                  "--patched-only`, then `--fit-only`).")
        md.append("")
        md.append("| cost model | model | exact | estimate | error | table |")
        md.append("|---|---|---:|---:|---:|---|")
        for cm, (n, exact, est, date) in rows:
            md.append("| %s | %s | %d | %d | %+.1f%% | %s |" % (cm, n, exact, est,
                                                           pct(est, exact), date))
        md.append("")
    md.append("### Per layer")
    md.append("")
    md.append("| cost model | layers | median abs. error | 90th percentile | conformance models: "
              "mean abs. error of the total | variant predicted wrong |")
    md.append("|---|---:|---:|---:|---:|---:|")
    for cm in cms:
        errs, conf, wrong, n = [], [], 0, 0
        for m in results[cm]["models"]:
            est_total = 0.0
            for l in m["layers"]:
                if l["kernel"] == "view":
                    continue
                n += 1
                wrong += l["kernel"] != l["predicted"]
                e = predict(results[cm]["table"], l)
                est_total += e
                errs.append(abs(pct(e, l["y"])) if l["y"] > 0 else 0)
            if m["set"] == "conformance" and m["total"] > 0:
                conf.append(abs(pct(est_total, m["total"])))
        errs.sort()
        if not errs:
            continue
        md.append("| %s | %d | %.1f%% | %.1f%% | %.1f%% | %d |" % (
            cm, n, errs[len(errs) // 2], errs[int(0.9 * (len(errs) - 1))],
            sum(conf) / max(len(conf), 1), wrong))
    md.append("")
    md.append("### Coefficients (instructions per unit of each feature)")
    md.append("")
    md.append("| cost model | operator | kernel | layers | RMS error | macs | window | taps | out | "
              "in | rows | calls |")
    md.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cm in cms:
        for (op, k), e in sorted(results[cm]["table"].items()):
            md.append("| %s | %s | %s | %d | %.1f%% | %s |" % (
                cm, op, k, e["samples"], e.get("err", 0),
                " | ".join("%.3g" % v if v else "" for v in e["coef"])))
    md.append("")
    md.append("### Flash estimate")
    md.append("")
    md.append("Measured = `.text` + `.rodata` + `.data` of the compiled `NAME.c` object "
              "(`arm-none-eabi-gcc -O2`); estimate = `flash_bytes`.")
    md.append("")
    arm = [cm for cm in cms if any(m["flash"] for m in results[cm]["models"])]
    head, sep = "| model |", "|---|"
    for cm in arm:
        head += " measured %s | estimate | error |" % cm
        sep += "---:|---:|---:|"
    md += [head, sep]
    for n in names:
        cells = []
        for cm in arm:
            r = results[cm]
            m = next((m for m in r["models"] if m["name"] == n), None)
            if not m or not m["flash"]:
                cells.append(" | | ")
                continue
            est = flash_estimate(m, r)
            cells.append("%d | %d | %+.1f%%" % (m["flash"], est, pct(est, m["flash"])))
        md.append("| %s | %s |" % (n, " | ".join(cells)))
    md.append("")
    md.append("| cost model | base | mean abs. error, shared models | conformance models |")
    md.append("|---|---:|---:|---:|")
    for cm in arm:
        r = results[cm]
        errs = {"model": [], "conformance": []}
        for m in r["models"]:
            if m["flash"]:
                e = flash_estimate(m, r)
                errs[m["set"]].append(abs(pct(e, m["flash"])))
        md.append("| %s | %d | %.1f%% | %.1f%% |" % (
            cm, r["base"], sum(errs["model"]) / max(len(errs["model"]), 1),
            sum(errs["conformance"]) / max(len(errs["conformance"]), 1)))
    return "\n".join(md)


def write_doc(path, text, section=""):
    begin = "<!-- calibration results%s: begin -->" % section
    end = "<!-- calibration results%s: end -->" % section
    doc = open(path).read() if os.path.exists(path) else "# Cost model\n\n%s\n%s\n" % (begin, end)
    if begin not in doc:
        doc += "\n%s\n%s\n" % (begin, end)
    a, b = doc.index(begin) + len(begin), doc.index(end)
    with open(path, "w") as f:
        f.write(doc[:a] + "\n" + text + "\n" + doc[b:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--models", default="cortex-m4 cortex-m7 host armv7m-portable")
    ap.add_argument("--keep-others", action="store_true",
                    help="keep the table's rows of the cost models not in --models (and "
                         "write their results into their own section of the doc)")
    ap.add_argument("--runtime", help="runtime/ folder (kernel prototypes); default beside --table")
    ap.add_argument("--no-loo", action="store_true", help="skip the leave-one-model-out refits")
    ap.add_argument("--detail", help="print each layer of this model: exact, estimate, features")
    a = ap.parse_args()
    runtime = a.runtime or os.path.join(os.path.dirname(os.path.abspath(a.table)), "..", "..",
                                        "runtime")
    date = datetime.date.today().isoformat()
    results = {}
    kept = None
    read_registry(runtime)
    if a.keep_others:
        kept = read_kept(a.table, set(a.models.split()))
    order = sorted(a.models.split(), key=lambda cm: cm not in SIBLING.values())
    for cm in order:  # siblings first: the others fall back on them
        models = load_cost_model(a.work, cm)
        if not models:
            print("%s: no measurements in %s" % (cm, a.work), file=sys.stderr)
            continue
        table = fit_table(models, model=cm)
        TABLES[cm] = table
        loo = {}
        if not a.no_loo:
            for m in models:
                if m["set"] == "model" and m["total"] > 0:
                    t = fit_table(models, exclude=m["name"], model=cm)
                    loo[m["name"]] = pct(sum(predict(t, l) for l in m["layers"]), m["total"])
        fams = families(runtime)
        code, base = fit_code(models, fams)
        results[cm] = {"models": models, "table": table, "loo": loo, "families": fams,
                       "code": code, "base": base,
                       "patched": load_patched(a.work, cm)}
        for m in models:
            if m["name"] == a.detail:
                for l in m["layers"]:
                    e = predict(table, l)
                    print("%s op %3d %-18s %-32s exact %11d est %11d %+6.1f%%  %s" % (
                        cm, l["index"], l["op"], l["kernel"], l["y"], e, pct(e, l["y"]),
                        " ".join("%s=%g" % (k, v) for k, v in zip(FEATURES, l["x"]) if v)))
        print("%s: %d models, %d layers, %d table rows" % (
            cm, len(models), sum(len(m["layers"]) for m in models), len(table)))
    if not results:
        sys.exit("fit.py: nothing to fit")
    results = {cm: results[cm] for cm in a.models.split() if cm in results}
    write_table(a.table, results, date, kept)
    md = results_markdown(results, date)
    write_doc(a.doc, md, " (%s)" % " ".join(results) if a.keep_others else "")
    print(md)


if __name__ == "__main__":
    main()
