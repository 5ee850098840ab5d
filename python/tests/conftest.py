"""What the tests share: the examples, the built CLI, and seeded random
edits of the two examples the agreement tests use (the same fields and
values as tests/RandomEdits.h)."""

import json
import os
import pathlib
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ.get("TILESCOPE_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
EXAMPLES = SOURCE / "examples"
REDUCTION = EXAMPLES / "cuda_sm_90" / "reduction_4x6656x16384_dispatch_0.benchmark.mlir"
MATMUL = EXAMPLES / "rocm_gfx942" / "matmul_f16_1024_dispatch_0.benchmark.mlir"
VECTOR_MATMUL = EXAMPLES / "rocm_gfx942" / "matmul_f16_vector_distribute_dispatch_0.benchmark.mlir"


def cli(*arguments, check=False):
    """Runs the built tilescope-cli; returns (exit code, stdout, stderr)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([os.environ["TILESCOPE_CLI"], *map(str, arguments)],
                         capture_output=True, text=True, env=env, timeout=300)
    if check and run.returncode != 0:
        raise AssertionError(f"tilescope-cli {' '.join(map(str, arguments))}: "
                             f"exit {run.returncode}\n{run.stdout}\n{run.stderr}")
    return run.returncode, run.stdout, run.stderr


def cli_json(*arguments):
    code, out, err = cli(*arguments)
    assert code in (0, 1), f"exit {code}: {err}"
    return json.loads(out)


def all_read(result):
    """Whether every key of a job's JSON, at every depth, is a field of its
    tilescope.results class: the classes and the C++ JSON writers agree."""
    from tilescope.results import _Json
    unread = result.unread_keys()
    assert not unread, f"{type(result).__name__} has no field for {unread}"
    for value in vars(result).values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, _Json):
                all_read(item)
    return True


def _pick(random, values):
    return str(random.choice(values))


def reduction_edit(random):
    fields = [
        lambda: ("lane_basis", f"[[1, {_pick(random, [8, 16, 32, 64])}], [0, 1]]"),
        lambda: ("subgroup_basis", f"[[1, {_pick(random, [1, 2, 4, 8])}], [0, 1]]"),
        lambda: ("partial_reduction", f"[0, {_pick(random, [64, 128, 256, 512, 1024])}]"),
        lambda: ("thread", f"[0, {_pick(random, [1, 2, 4, 8, 16])}]"),
        lambda: ("workgroup_size", f"[{_pick(random, [32, 64, 128, 256])}, 1, 1]"),
    ]
    return _one_or_two(random, fields)


def matmul_edit(random):
    fields = [
        lambda: ("workgroup", f"[{_pick(random, [16, 32, 64, 128, 256])}, "
                              f"{_pick(random, [16, 32, 64, 128, 256])}, 0]"),
        lambda: ("reduction", f"[0, 0, {_pick(random, [1, 2, 4, 8, 16])}]"),
        lambda: ("subgroup", f"[{_pick(random, [1, 2, 4])}, {_pick(random, [1, 2, 4, 8])}, 0]"),
        lambda: ("workgroup_size", f"[{_pick(random, [64, 128, 256, 512])}, 1, 1]"),
    ]
    return _one_or_two(random, fields)


def _one_or_two(random, fields):
    first = random.randrange(len(fields))
    edit = [fields[first]()]
    if random.randrange(2):
        second = (first + 1 + random.randrange(len(fields) - 1)) % len(fields)
        edit.append(fields[second]())
    return edit


@pytest.fixture(scope="session")
def tilescope():
    import tilescope as module
    return module
