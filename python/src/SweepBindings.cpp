// Sweeps: one root op's config varied, every candidate judged by the rules
// (and IREE, when asked), the valid ones compiled and timed in parallel and
// ranked, each landing in the history; a per-candidate callback, a status
// callback for a Slurm array's state, and a Cancel. The same plan and run
// `tilescope-cli sweep` does (prepareSweep, planSweepWithVerdicts, runSweep),
// returned as its --json.
#include "python/src/Bindings.h"

#include "core/process/Workspace.h"
#include "core/service/DocumentWorker.h"
#include "core/sweep/SweepJson.h"
#include "core/sweep/SweepWorkflow.h"
#include "core/tools/IreeInstallation.h"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <optional>

namespace tilescope::python {
namespace {

struct SweepArguments {
  std::vector<std::string> vary;
  bool ireeSpace = false, noIreeSpace = false, plan = false,
       ireeConstraints = false;
  int nearest = 32;
  std::string name, stage, on;
  std::optional<std::filesystem::path> workspace;
  int parallel = 0, repetitions = 3;
  double timeout = 300;
  std::string compileOn;
};

py::object sweep(const document::Document &document, const py::object &op,
                 const SweepArguments &arguments, const py::object &onCandidate,
                 const py::object &onStatus, const py::object &cancel) {
  // The workbench's choice checks the arguments, as it does the CLI's
  // options.
  workbench::SweepJobChoice choice;
  choice.op = opRefOf(document, op);
  choice.vary = arguments.vary;
  choice.ireeSpace = arguments.ireeSpace;
  choice.noIreeSpace = arguments.noIreeSpace;
  choice.nearest = arguments.nearest;
  choice.name = arguments.name;
  choice.stage = arguments.stage;
  choice.parallel = arguments.parallel;
  choice.repetitions = arguments.repetitions;
  choice.timeoutSeconds = arguments.timeout;
  choice.ireeConstraints = arguments.ireeConstraints;
  choice.on = arguments.on;
  choice.compileOn = arguments.compileOn;
  const workbench::Workbench here = benchFor(arguments.workspace);
  auto made = here.sweepRequest(document, choice);
  if (!made)
    throw Failure(made.refusal().message);
  sweep::SweepRequest &request = *made;
  request.cancel = cancelFlagOf(cancel);
  // A sweep that runs needs a flag of its own, for the callback to stop it.
  std::atomic<bool> stop{false};
  if (!request.cancel)
    request.cancel = &stop;

  // What a callback raised (or the interrupt that arrived) stops the sweep
  // and is raised again once it has stopped.
  auto *flag = const_cast<std::atomic<bool> *>(request.cancel);
  CallbackGuard guard(flag);
  nlohmann::json report;
  {
    py::gil_scoped_release release;
    auto prepared = here.prepareSweep(request, choice);
    if (!prepared)
      throw Failure(prepared.refusal().message);
    if (arguments.plan) {
      auto planned = here.planSweep(request);
      if (!planned)
        throw Failure(planned.refusal().message);
      report = sweep::planJson(request.name, planned->candidates, *prepared);
    } else {
      request.onCandidate = [&](const sweep::SweepCandidate &candidate,
                                size_t done, size_t total) {
        const nlohmann::json told = sweep::toJson(candidate);
        guard.call([&] {
          if (onCandidate.is_none())
            return;
          py::object answer =
              onCandidate(asResult("SweepCandidate", told), done, total);
          if (!answer.is_none() && !answer.cast<bool>())
            flag->store(true);
        });
      };
      if (!onStatus.is_none())
        request.onStatus = [&](const std::string &status) {
          guard.call([&] { onStatus(status); });
        };
      auto swept = here.runSweep(request);
      if (swept)
        report = sweep::resultJson(request.name, *swept, *prepared);
      else if (!guard.failed())
        throw Failure(swept.refusal().message);
    }
  }
  guard.raiseAgain();
  return asResult(arguments.plan ? "SweepPlan" : "SweepResult", report);
}

} // namespace

void bindSweeps(py::module_ &m) {
  m.def(
      "sweep",
      [](const document::Document &document, const py::object &op,
         const std::vector<std::string> &vary, bool ireeSpace, bool noIreeSpace,
         int nearest, bool plan, bool ireeConstraints, const std::string &stage,
         const std::string &name,
         std::optional<std::filesystem::path> workspace, int parallel,
         int repetitions, double timeout, const py::object &onCandidate,
         const py::object &cancel, const std::string &on,
         const py::object &onStatus, const std::string &compileOn) {
        return sweep(document, op,
                     SweepArguments{vary, ireeSpace, noIreeSpace, plan,
                                    ireeConstraints, nearest, name, stage, on,
                                    std::move(workspace), parallel, repetitions,
                                    timeout, compileOn},
                     onCandidate, onStatus, cancel);
      },
      py::arg("document"), py::arg("op"),
      py::arg("vary") = std::vector<std::string>{},
      py::arg("iree_space") = false, py::arg("no_iree_space") = false,
      py::arg("nearest") = 32, py::arg("plan") = false,
      py::arg("iree_constraints") = false, py::arg("stage") = "bench",
      py::arg("name") = "", py::arg("workspace") = py::none(),
      py::arg("parallel") = 0, py::arg("repetitions") = 3,
      py::arg("timeout") = 300.0, py::arg("on_candidate") = py::none(),
      py::arg("cancel") = py::none(), py::arg("on") = "",
      py::arg("on_status") = py::none(), py::arg("compile_on") = "",
      "Varies a root op's config, as `tilescope-cli sweep --json` (a "
      "tilescope.results.SweepPlan or SweepResult, its candidates "
      "SweepCandidate): `vary` "
      "holds FIELD=V1,V2,... axes (every combination is a candidate; with "
      "iree_space=True, FIELD names whose knobs vary); with none, IREE's "
      "constraint space for the op where IREE states one, else each "
      "workgroup and reduction entry halved and doubled. plan=True judges "
      "the candidates and runs nothing (`--plan`); otherwise the valid ones "
      "are compiled (stage=\"resources\": and their resources read; "
      "\"bench\": also timed where a device is here), ranked, and recorded "
      "in the workspace's history under the sweep's name (the same name "
      "resumes it). on_candidate(candidate, done, total) is called as each "
      "finishes, with the GIL held; returning False stops the sweep (and "
      "sets `cancel`, when one was given), an exception stops it and is "
      "raised again; `cancel` (a Cancel) stops it from elsewhere; "
      "on=\"ssh:HOST\" times the candidates on that host, "
      "on=\"slurm:PARTITION\" as one job array on that partition (default: "
      "the workspace's settings.json \"on\", else here); there "
      "on_status(line) is called as the array's state changes (\"job 41: 12 "
      "queued, 2 running, 50 of 64 done\"), with the GIL held; "
      "compile_on=\"slurm:PARTITION\" compiles the candidates there too, as "
      "a job array of its own that the run array's tasks wait for. "
      "The GIL is released while candidates run.");
}

} // namespace tilescope::python
