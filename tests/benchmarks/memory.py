"""Peak memory of `promolint check` on one very large file, against ``ast.parse`` of the same file
measured in the same run.

    python tests/benchmarks/memory.py [--lines 200000]

A 200k-line file once took 2.3 GB; the target is at most 2x the peak of parsing it.  Each
measure runs in a fresh interpreter and reports its own peak resident set (``ru_maxrss``), so
both include the interpreter; the file is the README example's statements repeated, in
functions and at module level (as ``lsp_latency.py`` builds its 1,000-line file), so that
the analysis has functions, calls, branches and findings throughout.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from lsp_latency import synthetic  # noqa: E402

PEAK = "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)"
PARSE = "import ast, sys; tree = ast.parse(open(sys.argv[1], 'rb').read()); " + PEAK
CHECK = (
    "import sys\n"
    "from promolint.cli.main import main\n"
    "try:\n    main(['check', '--no-cache', '--output-format', 'json', sys.argv[1]])\n"
    "except SystemExit:\n    pass\n" + PEAK
)


def peak_mib(program: str, path: Path) -> int:
    done = subprocess.run([sys.executable, "-c", program, str(path)], capture_output=True, text=True, check=False)
    return int(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "large.py"
        path.write_text(synthetic(args.lines))
        parse, check = peak_mib(PARSE, path), peak_mib(CHECK, path)
    print(f"file: {args.lines:,} lines")
    print(f"ast.parse peak:        {parse:6d} MiB")
    print(f"promolint check peak:  {check:6d} MiB = {check / parse:.2f}x ast.parse (target <= 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
