#!/usr/bin/env python3
"""patch_peak.py MODEL.tflite [--patch MODE] [--explain] [--te BUILD/tinyengine]

Where the arena of a patch-based plan comes from: the stage (its steps, the
network input it reads, its per-patch working memory) against the layer-by-
layer rest, and which buffers are placed at the step that sets the arena.
Reads `tinyengine plan --json`, `plan` and, with --explain, the search's
`info --explain` lines (per stage length: the smallest arena tried and why
it was not kept).  A step's footprint is the highest byte its live buffers
reach (offset + bytes), so a stage input overlaid on the stage output counts
once, as in the arena.  Used to write docs/patch-zoo-limits.md.
"""
import json
import re
import subprocess
import sys


def run(args):
    return subprocess.run(args, capture_output=True, text=True, check=False)


def footprints(plan):
    tops = [0] * len(plan["steps"])
    for b in plan["buffers"]:
        for s in range(b["first"], b["last"] + 1):
            tops[s] = max(tops[s], b["offset"] + b["bytes"])
    return tops


def live_at(plan, step):
    rows = []
    for b in plan["buffers"]:
        if b["first"] <= step <= b["last"]:
            ts = [t for t in b.get("tensors", []) if t["first"] <= step <= t["last"]]
            what = ",".join("%s%s" % (t["name"], t["shape"]) for t in ts)
            if not what:
                what = "patch working memory" if b.get("patch_stage") else b.get("name", b["kind"])
            rows.append((b["offset"], b["bytes"], b["kind"], what, b["first"], b["last"]))
    return sorted(rows)


def explain(te, model, patch):
    err = run([te, "info", model, "--json", "--patch", patch, "--explain"]).stderr
    best, other = {}, []
    for line in err.splitlines():
        line = line.replace("patch search: ", "")
        m = re.match(r"first (\d+) operators, (\d+x\d+): (.*)", line)
        if not m:
            other.append(line)
            continue
        a = re.search(r"arena (?:at least )?(\d+)", m.group(3))
        a = int(a.group(1)) if a else 1 << 40
        k = int(m.group(1))
        if k not in best or a < best[k][0]:
            best[k] = (a, m.group(2), m.group(3))
    return best, other


def main(argv):
    te, patch, want_explain, model = "build/tinyengine", "auto", False, None
    i = 1
    while i < len(argv):
        if argv[i] == "--patch":
            patch, i = argv[i + 1], i + 1
        elif argv[i] == "--te":
            te, i = argv[i + 1], i + 1
        elif argv[i] == "--explain":
            want_explain = True
        else:
            model = argv[i]
        i += 1
    if not model:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    r = run([te, "plan", model, "--json", "--quiet", "--patch", patch])
    if r.returncode:
        print(r.stderr.strip(), file=sys.stderr)
        return 1
    plan = json.loads(r.stdout)
    text = run([te, "plan", model, "--quiet", "--patch", patch]).stdout
    # the stage may start after operators no patch can run (a flat input's
    # RESHAPE), or later in the network (a lone stage): steps s0..k-1
    m = re.search(r"patch stage:\s+steps (\d+)\.\.(\d+), (\d+) x (\d+) patches, (\d+) bytes", text)
    s0, k = (int(m.group(1)), int(m.group(2)) + 1) if m else (0, 0)
    tops = footprints(plan)
    print("%s: arena %d (--patch %s)" % (model, plan["arena_bytes"], patch))
    if m:
        print("  stage: steps %d..%d (%d operators), %sx%s patches, %s bytes of working memory"
              % (s0, k - 1, k - s0, m.group(3), m.group(4), m.group(5)))
    for name, lo, hi in (("before the stage", 0, s0), ("stage", s0, k), ("after the stage", k, len(tops))):
        if lo >= hi:
            continue
        s = max(range(lo, hi), key=lambda j: tops[j])
        print("  %s: %d bytes at step %d (%s)" % (name, tops[s], s, plan["steps"][s]["type"]))
        for off, size, kind, what, first, last in live_at(plan, s):
            print("    @%-7d %7d %-10s %s [steps %d..%d]" % (off, size, kind, what, first, last))
    if want_explain:
        best, other = explain(te, model, patch)
        for line in other:
            print("  search: " + line)
        for kk in sorted(best):
            a, grid, why = best[kk]
            print("  K=%-3d smallest tried %s: %s" % (kk, grid, why))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
