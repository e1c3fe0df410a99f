"""The differential fuzzer's CI slice: generated programs (fixed seeds) under real NumPy and JAX,
in x64 off, x64 on and strict modes, against ``promolint reveal`` at every site.

Each mode runs in its own subprocess (``tests/fuzz/differential.py``), all three at once.  A
disagreement fails the slice unless KNOWN_LIMITATIONS.md lists its class; each listed
limitation's program must still disagree as documented (once the engine handles it, delete the
entry).  ``tests/benchmarks/fuzz.py`` runs the long campaign.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1]
FUZZ = HERE / "fuzz"
sys.path[:0] = [str(FUZZ), str(HERE / "oracle")]

from known_limitations import limitations  # noqa: E402
from workers import ModeWorkers, worker_environment  # noqa: E402

MODES = ("x64off", "x64on", "strict")
SEEDS = "0:200"  # programs per mode: about 20 s of CPU each, cold
COMPARED_WITH_ORACLE_RUNNER = 15  # programs also run by run_corpus.run_snippet, which must see the same


@pytest.fixture(scope="module")
def fuzz_runs():
    """Start the three workers at once; each test waits for its own mode's."""
    workers = ModeWorkers(worker_environment(), timeout=600, prefix="promolint-fuzz-")
    for mode in MODES:
        programs = workers.folder / f"limitations-{mode}.json"
        programs.write_text(json.dumps({f"limitation {lim.id}": lim.program for lim in limitations() if mode in lim.modes}))
        command = [str(FUZZ / "differential.py"), mode, "--seeds", SEEDS, "--programs", str(programs), "--minimize", "new"]
        if mode == "x64off":
            command += ["--compare-runners", str(COMPARED_WITH_ORACLE_RUNNER)]
        workers.start(mode, command)
    yield workers.result
    workers.close()


@pytest.mark.parametrize("mode", MODES)
def test_generated_programs_agree_with_reveal(mode, fuzz_runs):
    outcome = fuzz_runs(mode)
    tally = outcome["tally"]
    new = [(key, entry) for key, entry in outcome["classes"].items() if not entry["limitation"]]
    summary = (f"fuzz [{mode}]: {tally['programs']} programs, {tally['sites']} sites, "
               f"{tally['agreed']}/{tally['claimed']} claims hold, {tally['unknown']} unknown, "
               f"{tally['disagreed']} disagreements ({tally['propagated']} propagated), {len(new)} new classes")  # fmt: skip
    print(summary)
    assert not new, summary + "".join(
        f"\n\n{key}\n  first in {entry['program']}, minimized:\n    " + entry["minimized"].rstrip().replace("\n", "\n    ")
        for key, entry in new
    )
    assert tally["unknown"] <= 0.05 * tally["sites"], summary


@pytest.mark.parametrize("mode", MODES)
def test_known_limitations_still_behave_as_documented(mode, fuzz_runs):
    shown = fuzz_runs(mode)["shown"]
    fixed = []
    for limitation in limitations():
        if mode not in limitation.modes or not limitation.applies():  # e.g. fixed in a newer ml_dtypes
            continue
        keys = shown.get(f"limitation {limitation.id}", [])
        if not any(limitation.matches(mode, key) for key in keys):
            fixed.append(f"{limitation.id} ({limitation.title}): now shows {keys or 'no disagreement'}")
    assert not fixed, "KNOWN_LIMITATIONS.md entries that no longer disagree as written:\n" + "\n".join(fixed)


def test_fast_runner_sees_what_the_oracle_runner_sees(fuzz_runs):
    assert fuzz_runs("x64off")["runners_differ"] == []


def test_generator_is_seeded_and_writes_valid_python():
    import ast

    from generator import generate

    assert generate(7).text == generate(7).text
    assert len({generate(seed).text for seed in range(50)}) == 50
    for seed in range(200):
        ast.parse(generate(seed).text)


def test_known_limitations_are_well_formed():
    found = limitations()
    assert len({lim.id for lim in found}) == len(found)
    for limitation in found:
        assert limitation.modes and set(limitation.modes) <= set(MODES), limitation.id
        assert limitation.program.startswith("import jax\n"), f"{limitation.id}: a program as generate() renders it"
