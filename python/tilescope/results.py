"""What tilescope's jobs return, as classes with the fields their JSON has.

``tune()``, ``sweep()``, ``history()``, ``run_try()`` and ``verify()``
return these, built from the same JSON ``tilescope-cli ... --json`` prints:
each attribute is one of its keys (``try`` is ``try_id``, a keyword in
Python), nested objects are classes too (a tune's ``dispatches`` are
``TunedDispatch``, their times ``Timing``, their verdicts ``TimeVerdict``),
and a key the JSON leaves out is ``None``. ``to_dict()`` gives the JSON
back (for ``json.dump`` or ``pandas.DataFrame``), and ``result["key"]``
still reads it as it did when these were dicts.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Dict, List, Optional


class _Json:
    """A JSON object read into the dataclass's fields."""

    # field name -> its class, or [class] for a list of them
    _nested: ClassVar[Dict[str, Any]] = {}
    # JSON key -> field name, where the key is no Python name
    _renamed: ClassVar[Dict[str, str]] = {}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]):
        if not isinstance(data, dict):
            raise TypeError(f"{cls.__name__} is made from a dict, not {type(data).__name__}")
        names = {f.name for f in fields(cls) if f.init}
        values = {}
        for key, value in data.items():
            name = cls._renamed.get(key, key)
            if name not in names:
                continue
            kind = cls._nested.get(name)
            if isinstance(kind, list) and isinstance(value, list):
                value = [kind[0].from_dict(v) if isinstance(v, dict) else v for v in value]
            elif kind is not None and isinstance(value, dict):
                value = kind.from_dict(value)
            values[name] = value
        made = cls(**values)
        object.__setattr__(made, "_json", data)
        return made

    def to_dict(self) -> Dict[str, Any]:
        """The JSON this was made from (a copy)."""
        return copy.deepcopy(getattr(self, "_json", {}))

    def unread_keys(self) -> List[str]:
        """Keys of the JSON no field holds (none, while the classes and the
        JSON writers agree; the tests hold them to it)."""
        names = {f.name for f in fields(self)}
        return sorted(k for k in getattr(self, "_json", {})
                      if self._renamed.get(k, k) not in names)

    # Read as the dicts these once were.
    def __getitem__(self, key: str):
        return getattr(self, "_json")[key]

    def __contains__(self, key: str) -> bool:
        return key in getattr(self, "_json", {})

    def get(self, key: str, default=None):
        return getattr(self, "_json", {}).get(key, default)

    def keys(self):
        return getattr(self, "_json", {}).keys()


@dataclass(frozen=True)
class Timing(_Json):
    """A timed run's repetitions, in microseconds."""
    median_us: Optional[float] = None
    spread_us: Optional[float] = None
    min_us: Optional[float] = None
    max_us: Optional[float] = None
    repetitions: Optional[int] = None


@dataclass(frozen=True)
class TimeVerdict(_Json):
    """Two times compared (A, then B) with their noise."""
    a_us: Optional[float] = None
    b_us: Optional[float] = None
    speedup_b_over_a: Optional[float] = None
    noise_us: Optional[float] = None
    within_noise: Optional[bool] = None
    verdict: Optional[str] = None


@dataclass(frozen=True)
class Try(_Json):
    """A try in the workspace's history (`tilescope-cli history --json`)."""
    id: Optional[int] = None
    created_at: Optional[str] = None
    kind: Optional[str] = None
    document: Optional[str] = None
    op: Optional[str] = None
    target: Optional[str] = None
    device: Optional[str] = None
    outcome: Optional[str] = None
    summary: Optional[str] = None
    directory: Optional[str] = None
    wall_seconds: Optional[float] = None
    median_us: Optional[float] = None
    check_passed: Optional[bool] = None
    sweep: Optional[str] = None
    candidate: Optional[str] = None
    # configs, commands, resources, the prediction, measurements, errors
    details: Dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class TryResult(_Json):
    """A compile, resources or timed run of a document (`run_try`, as
    `tilescope-cli compile | resources | bench --json`)."""
    _renamed: ClassVar[Dict[str, str]] = {"try": "try_id"}
    file: Optional[str] = None
    outcome: Optional[str] = None
    try_id: Optional[int] = None
    not_recorded: Optional[str] = None
    cannot_run: Optional[str] = None
    compile: Optional[Dict[str, Any]] = field(default=None, repr=False)
    resources: Optional[Dict[str, Any]] = field(default=None, repr=False)
    prediction: Optional[Dict[str, Any]] = field(default=None, repr=False)
    resources_error: Optional[str] = None
    dispatch_alone: Optional[Dict[str, Any]] = None
    bench: Optional[Dict[str, Any]] = field(default=None, repr=False)


@dataclass(frozen=True)
class CheckResult(_Json):
    """A checked run (`verify`, as `tilescope-cli verify --json`)."""
    _renamed: ClassVar[Dict[str, str]] = {"try": "try_id"}
    file: Optional[str] = None
    passed: Optional[bool] = None
    outcome: Optional[str] = None
    try_id: Optional[int] = None
    not_recorded: Optional[str] = None
    summary: Optional[str] = None
    directory: Optional[str] = None
    backend: Optional[str] = None
    device: Optional[str] = None
    function: Optional[str] = None
    commands: List[str] = field(default_factory=list)
    outputs: List[Dict[str, Any]] = field(default_factory=list)
    seconds: Optional[float] = None
    failed_step: Optional[str] = None
    error: Optional[str] = None


@dataclass(frozen=True)
class SweepCandidate(_Json):
    """One candidate of a sweep: its settings, the rules' (and IREE's)
    verdict, the cost model's prediction and, once run, its try."""
    _renamed: ClassVar[Dict[str, str]] = {"try": "try_id"}
    _nested: ClassVar[Dict[str, Any]] = {"against_first": TimeVerdict}
    candidate: Optional[str] = None
    valid: Optional[bool] = None
    settings: Dict[str, str] = field(default_factory=dict)
    iree_verdict: Optional[str] = None
    iree_verdict_by: Optional[str] = None
    problems: List[Dict[str, Any]] = field(default_factory=list)
    why_not: Optional[str] = None
    predicted_us: Optional[float] = None
    prediction: Optional[str] = None
    prediction_resources: Optional[str] = None
    measured_us: Optional[float] = None
    measured_in_try: Optional[int] = None
    against_first: Optional[TimeVerdict] = None
    ranked_by: Optional[str] = None
    try_id: Optional[int] = None
    outcome: Optional[str] = None
    summary: Optional[str] = None
    resumed: Optional[bool] = None
    median_us: Optional[float] = None
    directory: Optional[str] = None
    resources: Optional[Dict[str, Any]] = field(default=None, repr=False)


@dataclass(frozen=True)
class SweepPlan(_Json):
    """A sweep judged and not run (`sweep(..., plan=True)`, `--plan`)."""
    _nested: ClassVar[Dict[str, Any]] = {"candidates": [SweepCandidate]}
    sweep: Optional[str] = None
    candidates: List[SweepCandidate] = field(default_factory=list)
    valid: Optional[int] = None
    total: Optional[int] = None
    predicted_from: Optional[str] = None
    neighbourhood: Optional[str] = None
    iree_space: Optional[Dict[str, Any]] = field(default=None, repr=False)
    why_not_iree: Optional[str] = None


@dataclass(frozen=True)
class SweepResult(_Json):
    """A sweep run: its candidates ranked, each with its try."""
    _nested: ClassVar[Dict[str, Any]] = {"candidates": [SweepCandidate]}
    sweep: Optional[str] = None
    ran: Optional[int] = None
    resumed: Optional[int] = None
    invalid: Optional[int] = None
    cancelled: Optional[bool] = None
    ranking: Optional[str] = None
    candidates: List[SweepCandidate] = field(default_factory=list)
    slurm: Optional[Dict[str, Any]] = None
    neighbourhood: Optional[str] = None
    iree_space: Optional[Dict[str, Any]] = field(default=None, repr=False)
    why_not_iree: Optional[str] = None


@dataclass(frozen=True)
class TunedDispatch(_Json):
    """One dispatch of a tuned program: its share, IREE's default, the
    winner and what became of it."""
    _nested: ClassVar[Dict[str, Any]] = {
        "default_time": Timing, "winner_time": Timing, "verdict": TimeVerdict}
    dispatch: Optional[int] = None
    op: Optional[str] = None
    name: Optional[str] = None
    op_name: Optional[str] = None
    loops: Optional[str] = None
    kind: Optional[str] = None
    same_as: Optional[int] = None
    share: Optional[float] = None
    share_from: Optional[str] = None
    default_time: Optional[Timing] = None
    default_predicted_us: Optional[float] = None
    outcome: Optional[str] = None
    why: Optional[str] = None
    sweep: Optional[str] = None
    neighbourhood: Optional[str] = None
    candidates: Optional[int] = None
    valid: Optional[int] = None
    winner: Optional[str] = None
    winner_time: Optional[Timing] = None
    winner_predicted_us: Optional[float] = None
    verdict: Optional[TimeVerdict] = None
    check: Optional[str] = None
    kept: Optional[bool] = None
    predicted_only: Optional[bool] = None
    lowering_config: Optional[str] = None
    compilation_info: Optional[str] = None
    translation_info: Optional[str] = None
    not_in_spec: Optional[str] = None


@dataclass(frozen=True)
class ProgramRun(_Json):
    """The whole program compiled one way (IREE's default or tuned), run,
    checked and timed end to end."""
    _nested: ClassVar[Dict[str, Any]] = {"time": Timing}
    what: Optional[str] = None
    folder: Optional[str] = None
    device: Optional[str] = None
    function: Optional[str] = None
    check: Optional[str] = None
    check_passed: Optional[bool] = None
    time: Optional[Timing] = None
    commands: List[str] = field(default_factory=list)
    error: Optional[str] = None


@dataclass(frozen=True)
class TuneResult(_Json):
    """A whole program tuned (`tune`, as `tilescope-cli tune --json`)."""
    _nested: ClassVar[Dict[str, Any]] = {
        "dispatches": [TunedDispatch], "default_program": ProgramRun,
        "tuned_program": ProgramRun, "end_to_end": TimeVerdict}
    folder: Optional[str] = None
    configured: Optional[str] = None
    spec: Optional[str] = None
    spec_flag: Optional[str] = None
    target_flags: List[str] = field(default_factory=list)
    target: Optional[str] = None
    device: Optional[str] = None
    on: Optional[str] = None
    bundle: Optional[str] = None
    imported: Optional[str] = None
    measured: Optional[bool] = None
    not_measured_because: Optional[str] = None
    dispatches: List[TunedDispatch] = field(default_factory=list)
    spec_proof: List[Dict[str, Any]] = field(default_factory=list)
    default_program: Optional[ProgramRun] = None
    tuned_program: Optional[ProgramRun] = None
    outputs_agree: Optional[bool] = None
    spec_breaks_compile: Optional[bool] = None
    outputs_comparison: Optional[str] = None
    end_to_end: Optional[TimeVerdict] = None
    end_to_end_outcome: Optional[str] = None
    wall_seconds: Optional[float] = None
    tries: Optional[int] = None
    resumed: Optional[int] = None
    budget_spent: Optional[bool] = None
    cancelled: Optional[bool] = None
    notes: List[str] = field(default_factory=list)
