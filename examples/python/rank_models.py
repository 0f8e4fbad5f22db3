#!/usr/bin/env python3
"""rank_models.py - rank candidate models by estimated latency under an SRAM
and a flash limit, as the inner loop of an architecture search would:

    python3 examples/python/rank_models.py [MODEL.tflite|DIR ...]
        [--sram 64K] [--flash 512K] [--target cortex-m4] [--patch]

Each candidate is profiled with the tinyengine package (no code is
generated); those whose RAM (arena, plus the stack when the report states
it) and estimated flash fit the limits are ranked fastest first, the others
are listed with the reason.  With --patch each model is also tried with
patch-based inference (patch="auto"), and the faster variant that fits is
kept.  Default candidates: the .tflite files in examples/models/.
Install the package first: pip install ./python
"""
import argparse
import glob
import os
import sys

import tinyengine

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_bytes(text):
    scale = {"k": 1024, "m": 1024 * 1024}.get(text[-1:].lower(), 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit():
        raise argparse.ArgumentTypeError("'%s' is not a byte count like 65536 or 64K" % text)
    return int(digits) * scale


def candidates(paths):
    if not paths:
        paths = [os.path.join(HERE, "..", "models")]
    found = []
    for p in paths:
        found += sorted(glob.glob(os.path.join(p, "*.tflite"))) if os.path.isdir(p) else [p]
    return found


def ram_bytes(report):
    """What the model needs in RAM: the arena, plus the invoke's stack when
    the report has it."""
    return report["peak_sram_bytes"] + report.get("stack_bytes", 0)


def evaluate(path, args):
    """(best fitting variant or None, reason it does not fit)."""
    variants = [{}] + ([{"patch": "auto"}] if args.patch else [])
    best, reason = None, ""
    for options in variants:
        try:
            r = tinyengine.profile(path, target=args.target, **options)
        except tinyengine.TinyEngineError as e:
            return None, "error: %s" % e
        r["variant"] = "patch auto" if options else "layer by layer"
        if ram_bytes(r) > args.sram:
            reason = "RAM %d B > %d B" % (ram_bytes(r), args.sram)
        elif r["flash_bytes"] > args.flash:
            reason = "flash %d B > %d B" % (r["flash_bytes"], args.flash)
        elif best is None or r["estimated_latency_ms"] < best["estimated_latency_ms"]:
            best = r
    return best, reason


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", help=".tflite files or folders of them")
    ap.add_argument("--sram", type=parse_bytes, default=parse_bytes("256K"),
                    help="RAM limit (default 256K)")
    ap.add_argument("--flash", type=parse_bytes, default=parse_bytes("1M"),
                    help="flash limit (default 1M)")
    ap.add_argument("--target", default="cortex-m4", help="default cortex-m4")
    ap.add_argument("--patch", action="store_true", help="also try patch-based inference")
    args = ap.parse_args()

    fitting, rejected = [], []
    for path in candidates(args.models):
        best, reason = evaluate(path, args)
        (fitting if best else rejected).append((path, best, reason))
    fitting.sort(key=lambda item: item[1]["estimated_latency_ms"])

    print("target %s, RAM limit %d B, flash limit %d B" % (args.target, args.sram, args.flash))
    print("%-4s %12s %10s %10s %12s  %-15s %s" % ("rank", "latency ms", "RAM B", "flash B",
                                                  "MACs", "variant", "model"))
    for rank, (path, r, _) in enumerate(fitting, 1):
        print("%-4d %12.3f %10d %10d %12d  %-15s %s" % (rank, r["estimated_latency_ms"],
                                                        ram_bytes(r), r["flash_bytes"],
                                                        r["macs"], r["variant"], path))
    for path, _, reason in rejected:
        print("%-4s %s: %s" % ("-", path, reason))
    return 0 if fitting else 1


if __name__ == "__main__":
    sys.exit(main())
