"""test_tinyengine.py - the tinyengine Python package against the tool.

Run by ctest (python.package, tests/python/run.sh) on the installed package:
$TINYENGINE_CLI is the `tinyengine` binary of the same tree, whose
`profile --json` and `compile` the package must match; $TE_MODEL a model
(default: examples/models/tiny_cnn.tflite of the repository)."""
import json
import os
import subprocess
import tempfile
import unittest

import tinyengine

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MODEL = os.environ.get("TE_MODEL") or os.path.join(ROOT, "examples", "models", "tiny_cnn.tflite")
CLI = os.environ.get("TINYENGINE_CLI")


def cli(*args):
    return subprocess.run([CLI] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


class ProfileTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(tinyengine.version(), r"^\d+\.\d+\.\d+")

    def test_report_fields(self):
        r = tinyengine.profile(MODEL, target="cortex-m4")
        self.assertEqual(r["target"], "cortex-m4")
        self.assertEqual(r["model"], MODEL)
        self.assertGreater(r["macs"], 0)
        self.assertGreater(r["peak_sram_bytes"], 0)
        self.assertGreater(r["estimated_latency_ms"], 0)
        self.assertTrue(r["layers"])

    def test_bytes_equal_path(self):
        with open(MODEL, "rb") as f:
            from_bytes = tinyengine.profile(f.read(), target="cortex-m7", patch="auto")
        from_path = tinyengine.profile(MODEL, target="cortex-m7", patch="auto")
        self.assertIsNone(from_bytes.pop("model"))
        from_path.pop("model")
        self.assertEqual(from_bytes, from_path)

    @unittest.skipUnless(CLI, "TINYENGINE_CLI not set")
    def test_same_json_as_cli(self):
        for args, options in [([], {}),
                              (["--target", "cortex-m4", "--mhz", "80", "--cpi", "1.5"],
                               {"target": "cortex-m4", "mhz": 80, "cpi": 1.5}),
                              (["--patch", "auto", "--max-recompute", "10", "--int8-io"],
                               {"patch": "auto", "max_recompute": 10, "int8_io": True})]:
            done = cli("profile", MODEL, "--json", *args)
            self.assertEqual(done.returncode, 0, done.stderr)
            options = dict(options)
            target = options.pop("target", None)
            self.assertEqual(tinyengine.profile(MODEL, target=target, **options),
                             json.loads(done.stdout), args)

    def test_sram_limit(self):
        # the limit counts arena + state + stack (ram_bytes)
        report = tinyengine.profile(MODEL)
        need, arena = report["ram_bytes"], report["peak_sram_bytes"]
        self.assertEqual(tinyengine.profile(MODEL, sram_limit=need)["peak_sram_bytes"], arena)
        # (the arena alone: the limit turns the patch search on, whose smallest
        # plan still does not fit with the stack)
        with self.assertRaises(tinyengine.TinyEngineError) as e:
            tinyengine.profile(MODEL, sram_limit=arena)
        self.assertIn("sram-limit", str(e.exception))
        self.assertEqual(tinyengine.profile(MODEL, sram_limit="1M")["peak_sram_bytes"], arena)

    def test_memory_regions(self):
        # the same arena total in two regions, listed as the CLI gives them
        report = tinyengine.profile(MODEL, memory_regions=["FAST=1K", "SLOW=1M"])
        self.assertEqual(report, tinyengine.profile(MODEL, memory_regions="FAST=1K,SLOW=1M"))
        with tempfile.TemporaryDirectory() as out:
            py = tinyengine.compile(MODEL, out, name="net", memory_regions=["FAST=1K", "SLOW=1M"])
            with open(py["header"]) as h:
                self.assertIn("#define NET_SLOW_ATTR", h.read())
        with self.assertRaises(tinyengine.TinyEngineError) as e:
            tinyengine.profile(MODEL, memory_regions=["FAST=1K", "fast=2K"])
        self.assertIn("twice", str(e.exception))

    def test_errors(self):
        cases = [((b"not a model at all",), {}, "TFLite"),
                 ((MODEL,), {"target": "z80"}, "unknown target 'z80'"),
                 ((MODEL,), {"patch": "sideways"}, "bad patch setting"),
                 ((MODEL,), {"mhz": 0}, "mhz"),
                 ((os.path.join(ROOT, "no-such-model.tflite"),), {}, "cannot read")]
        for args, options, message in cases:
            with self.assertRaises(tinyengine.TinyEngineError, msg=message) as e:
                tinyengine.profile(*args, **options)
            self.assertIn(message, str(e.exception))
            self.assertNotIn("\n", str(e.exception))
        with self.assertRaises(TypeError):
            tinyengine.profile(MODEL, sram=1)
        with self.assertRaises(TypeError):
            tinyengine.profile(42)


class CompileTest(unittest.TestCase):
    def test_writes_header_and_source(self):
        with tempfile.TemporaryDirectory() as out:
            files = tinyengine.compile(MODEL, out, name="net", target="cortex-m4")
            self.assertEqual(files, {"header": os.path.join(out, "net.h"),
                                     "source": os.path.join(out, "net.c")})
            with open(files["header"]) as f:
                self.assertIn("net_invoke", f.read())
            self.assertGreater(os.path.getsize(files["source"]), 1000)

    def test_default_name(self):
        with tempfile.TemporaryDirectory() as out:
            stem = os.path.splitext(os.path.basename(MODEL))[0]
            self.assertTrue(tinyengine.compile(MODEL, out)["header"].endswith(stem + ".h"))
            with open(MODEL, "rb") as f:
                self.assertTrue(tinyengine.compile(f.read(), out)["header"].endswith("model.h"))

    @unittest.skipUnless(CLI, "TINYENGINE_CLI not set")
    def test_same_code_as_cli(self):
        """The generated code equals the tool's (all but the first comment
        line, which names the model file for the tool)."""
        with tempfile.TemporaryDirectory() as out:
            py = tinyengine.compile(MODEL, os.path.join(out, "py"), name="net",
                                    target="cortex-m4", patch="auto")
            done = cli("compile", MODEL, "-o", os.path.join(out, "cli"), "--name", "net",
                       "--target", "cortex-m4", "--patch", "auto", "--quiet")
            if done.returncode != 0 and "--quiet" in done.stderr:  # a tool without --quiet
                done = cli("compile", MODEL, "-o", os.path.join(out, "cli"), "--name", "net",
                           "--target", "cortex-m4", "--patch", "auto")
            self.assertEqual(done.returncode, 0, done.stderr)
            for kind, ext in (("header", ".h"), ("source", ".c")):
                with open(py[kind]) as a, open(os.path.join(out, "cli", "net" + ext)) as b:
                    self.assertEqual(a.read().split("\n")[1:], b.read().split("\n")[1:], kind)

    def test_errors(self):
        with tempfile.TemporaryDirectory() as out:
            with self.assertRaises(tinyengine.TinyEngineError) as e:
                tinyengine.compile(MODEL, out, name="not an identifier")
            self.assertIn("not a valid C identifier", str(e.exception))
            with self.assertRaises(tinyengine.TinyEngineError) as e:
                tinyengine.compile(MODEL, out, sram_limit=16)
            self.assertIn("sram-limit", str(e.exception))
            self.assertEqual(os.listdir(out), [])


if __name__ == "__main__":
    unittest.main()
