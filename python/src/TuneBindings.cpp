// tilescope.tune: a whole program tuned end to end, the same job (core/tune)
// `tilescope-cli tune` runs, returned as its --json; progress as it goes
// and a Cancel.
#include "python/src/Bindings.h"

#include "core/service/DocumentWorker.h"
#include "core/service/IreeCommands.h"
#include "core/tune/TuneReport.h"

#include <cmath>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <optional>

namespace tilescope::python {
namespace {

struct TuneArguments {
  std::filesystem::path program;
  std::string target;
  std::optional<std::filesystem::path> workspace, spec;
  double budget = 30;
  int candidates = 8, repetitions = 5;
  double timeout = 300;
  std::string on;
  std::optional<std::filesystem::path> bundle, importFrom;
};

py::object tune(const TuneArguments &arguments, const py::object &onProgress,
                const py::object &cancel) {
  // The workbench's choice checks the arguments, as it does the CLI's
  // options and the window's boxes.
  workbench::TuneChoice choice;
  choice.program = arguments.program;
  choice.target = arguments.target;
  choice.budgetMinutes = arguments.budget;
  choice.candidates = arguments.candidates;
  choice.repetitions = arguments.repetitions;
  choice.timeoutSeconds = arguments.timeout;
  choice.on = arguments.on;
  choice.bundle = arguments.bundle.value_or(std::filesystem::path());
  choice.importFrom = arguments.importFrom.value_or(std::filesystem::path());
  choice.spec = arguments.spec.value_or(std::filesystem::path());
  const workbench::Workbench here = benchFor(arguments.workspace);
  auto made = here.tuneRequest(choice);
  if (!made)
    throw Failure(made.refusal().message);
  tune::TuneRequest &request = *made;
  request.cancel = cancelFlagOf(cancel);
  std::atomic<bool> stop{false};
  if (!request.cancel)
    request.cancel = &stop;

  auto *flag = const_cast<std::atomic<bool> *>(request.cancel);
  CallbackGuard guard(flag);
  request.onProgress = [&](const tune::TuneProgress &progress) {
    guard.call([&] {
      if (onProgress.is_none())
        return;
      py::dict step;
      step["step"] = progress.step;
      step["done"] = progress.done;
      step["total"] = progress.total;
      step["seconds_left"] = progress.secondsLeft
                                 ? py::object(py::float_(*progress.secondsLeft))
                                 : py::object(py::none());
      py::object answer = onProgress(step);
      if (!answer.is_none() && !answer.cast<bool>())
        flag->store(true);
    });
  };
  nlohmann::json report;
  {
    py::gil_scoped_release release;
    auto tuned = here.tune(request);
    if (tuned)
      report = tune::toJson(*tuned);
    else if (!guard.failed())
      throw Failure(tuned.refusal().message);
  }
  guard.raiseAgain();
  return asResult("TuneResult", report);
}

} // namespace

void bindTunes(py::module_ &m) {
  m.def(
      "tune",
      [](const std::filesystem::path &program, const std::string &target,
         std::optional<std::filesystem::path> workspace,
         std::optional<std::filesystem::path> spec, double budget,
         int candidates, int repetitions, double timeout,
         const py::object &onProgress, const py::object &cancel,
         const std::string &on, std::optional<std::filesystem::path> bundle,
         std::optional<std::filesystem::path> importFrom) {
        return tune(TuneArguments{program, target, std::move(workspace),
                                  std::move(spec), budget, candidates,
                                  repetitions, timeout, on, std::move(bundle),
                                  std::move(importFrom)},
                    onProgress, cancel);
      },
      py::arg("program"), py::arg("target") = "",
      py::arg("workspace") = py::none(), py::arg("spec") = py::none(),
      py::arg("budget") = 30.0, py::arg("candidates") = 8,
      py::arg("repetitions") = 5, py::arg("timeout") = 300.0,
      py::arg("on_progress") = py::none(), py::arg("cancel") = py::none(),
      py::arg("on") = "", py::arg("bundle") = py::none(),
      py::arg("import_from") = py::none(),
      "Tunes a whole program, as `tilescope-cli tune --json` (a "
      "tilescope.results.TuneResult with its fields): it is "
      "configured for `target` (\"\": the devices it names), each "
      "dispatch's root op timed alone with IREE's config (its share; "
      "predicted where the target's device is not here), each kind of "
      "dispatch swept in order of share until `budget` minutes are spent, "
      "a winner kept when measured faster beyond noise and checked, the "
      "winners written as one tuning spec (`spec`, else in the tune's "
      "folder) that IREE is shown to apply, and the program with and "
      "without it run on the same inputs, compared and timed end to end. "
      "on_progress({step, done, total, seconds_left}) is called as it goes, "
      "with the GIL held; returning False stops it (as `cancel` does). "
      "on=\"ssh:HOST\" or \"slurm:PARTITION\" runs every timed and checked "
      "run there (\"\": the workspace's settings, else here). "
      "bundle=DIR times nothing here and writes a run bundle for the GPU "
      "machine (DIR/run.sh, then DIR/programs.sh there); "
      "import_from=DIR continues from what it measured. Tries land in "
      "the workspace's history: a second call resumes.");
}

} // namespace tilescope::python
