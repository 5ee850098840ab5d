// Jobs: a try (compile, resources read from the compiled kernel, a timed
// run) and a checked run, each recorded in a workspace's history, and the
// history's rows as dicts, as `tilescope-cli compile | resources | bench |
// verify --json` and `history --json` give them; which IREE they use; a
// Cancel flag to stop them.
#include "python/src/Bindings.h"

#include "core/isa/AssemblyJson.h"
#include "core/process/Workspace.h"
#include "core/service/CompileJob.h"
#include "core/service/DocumentWorker.h"
#include "core/service/Sass.h"
#include "core/tools/IreeInstallation.h"
#include "core/tries/History.h"
#include "core/tries/JobJson.h"
#include "core/tries/TryJob.h"

#include <algorithm>
#include <cmath>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

namespace tilescope::python {
namespace {

// The try's id, or why the history did not take it, into `out`.
void recorded(const std::filesystem::path &workspace, tries::TryRecord record,
              nlohmann::json &out) {
  out["outcome"] = record.outcome;
  auto id = tries::recordTry(workspace, std::move(record));
  out["try"] = id ? nlohmann::json(*id) : nlohmann::json(nullptr);
  if (!id)
    out["not_recorded"] = id.error();
}

py::object runTry(const document::Document &document, const py::object &op,
                  const std::string &stage,
                  std::optional<std::filesystem::path> workspace,
                  int repetitions, double timeoutSeconds,
                  const py::object &cancel, const std::string &on) {
  tries::TryRequest request;
  request.document = &document;
  if (!op.is_none()) {
    const edit::OpRef ref = opRefOf(document, op);
    request.op = std::pair{ref.dispatch, ref.op};
  }
  if (stage == "compile")
    request.upTo = tries::TryStage::Compile;
  else if (stage == "resources")
    request.upTo = tries::TryStage::Resources;
  else if (stage == "bench")
    request.upTo = tries::TryStage::Bench;
  else
    throw Failure("stage is compile, resources or bench, not '" + stage + "'");
  if (repetitions < 1 || repetitions > 1000)
    throw Failure("repetitions must be 1 to 1000");
  request.repetitions = repetitions;
  request.timeout = timeoutOf(timeoutSeconds);
  request.cancel = cancelFlagOf(cancel);
  const std::filesystem::path folder = workspaceOr(workspace);
  request.place = valueOr(run::runPlaceOr(on, folder));
  ireeOrRaise(); // no try folder for a try that cannot start
  nlohmann::json report;
  {
    py::gil_scoped_release release;
    request.directory = valueOr(process::newTryDirectory(folder));
    request.worker = &worker();
    auto made = bench().runTry(request);
    if (!made)
      throw Failure(made.refusal().message);
    tries::TryResult &tried = *made;
    nlohmann::json out = tried.report;
    out["file"] = document.path.string();
    recorded(folder, tried.record, out);
    if (!tried.cannotRun.empty())
      out["cannot_run"] = tried.cannotRun;
    report = std::move(out);
  }
  return asResult("TryResult", report);
}

py::object verify(const document::Document &document,
                  std::optional<std::filesystem::path> program,
                  std::optional<std::filesystem::path> reference,
                  const std::string &function, uint64_t seed,
                  std::optional<double> atol, std::optional<double> rtol,
                  const std::string &target, const std::string &device,
                  std::optional<std::filesystem::path> workspace,
                  double timeoutSeconds, const py::object &cancel,
                  const std::string &on) {
  run::CheckRequest request;
  request.seed = seed;
  const std::filesystem::path folder = workspaceOr(workspace);
  request.place = valueOr(run::runPlaceOr(on, folder));
  if (atol || rtol) {
    request.tolerance = run::Tolerance{atol.value_or(0), rtol.value_or(0)};
    if (request.tolerance->absolute < 0 || request.tolerance->relative < 0)
      throw Failure("atol and rtol must be at least 0");
  }
  std::optional<service::CompileTarget> compileTarget;
  if (!target.empty())
    compileTarget = valueOr(service::compileTarget(target));
  const std::string backend = valueOr(
      tries::prepareCheck(request, document, program, compileTarget, device));
  request.reference = reference;
  request.function = function;
  request.timeout = timeoutOf(timeoutSeconds);
  request.cancel = cancelFlagOf(cancel);
  ireeOrRaise(); // no try folder for a run that cannot start
  nlohmann::json report;
  {
    py::gil_scoped_release release;
    request.directory = valueOr(process::newTryDirectory(folder));
    auto made = bench().check(request);
    if (!made)
      throw Failure(made.refusal().message);
    const run::CheckResult &checked = *made;
    nlohmann::json out = tries::toJson(checked);
    out["file"] = document.path.string();
    out["passed"] = checked.hasVerdict() ? nlohmann::json(checked.passed())
                                         : nlohmann::json(nullptr);
    recorded(folder, tries::checkRecord(request, checked, document, backend),
             out);
    report = std::move(out);
  }
  return asResult("CheckResult", report);
}

py::dict ireeInstallation() {
  auto iree = ireeOrRaise();
  py::dict tools;
  for (const auto &[name, path] : iree.tools)
    tools[py::str(name)] = path.string();
  py::dict out;
  out["compiler_library"] = iree.compilerLibrary.string();
  out["found_by"] = iree.foundBy;
  out["tools"] = tools;
  out["missing_tools"] = iree.missingTools;
  out["worker"] = bench().options().workerProgram.string();
  return out;
}

py::list history(std::optional<std::filesystem::path> workspace,
                 const std::string &op, const std::string &outcome, int limit) {
  if (!outcome.empty() && !tries::isTryOutcome(outcome))
    throw Failure("outcome '" + outcome + "' is no outcome; one of " +
                  tries::tryOutcomeList());
  // A read makes no workspace: none there, no tries.
  const std::filesystem::path file = tries::historyFile(workspaceOr(workspace));
  std::error_code missing;
  if (!std::filesystem::exists(file, missing))
    return py::list();
  auto opened = valueOr(tries::History::open(file));
  tries::HistoryFilter filter;
  filter.op = op;
  filter.outcome = outcome;
  filter.limit = limit;
  py::list rows;
  for (const tries::TryRecord &record : valueOr(opened.list(filter)))
    rows.append(asResult("Try", tries::toJson(record)));
  return rows;
}

} // namespace

std::filesystem::path
workspaceOr(const std::optional<std::filesystem::path> &given) {
  return std::filesystem::absolute(benchFor(given).workspace());
}

std::chrono::milliseconds timeoutOf(double seconds) {
  // The workbench's rule, as for the CLI's --timeout and the window's boxes.
  return valueOr(workbench::stepLimit(seconds, "timeout"));
}

const std::atomic<bool> *cancelFlagOf(const py::object &cancel) {
  if (cancel.is_none())
    return nullptr;
  if (!py::isinstance<CancelToken>(cancel))
    throw Failure("cancel is a tilescope.Cancel or None");
  return cancel.cast<CancelToken &>().flag.get();
}

void bindJobs(py::module_ &m) {
  py::class_<CancelToken>(m, "Cancel",
                          "A flag that stops a running job (run_try, verify, "
                          "sweep) at its next step; set it from another "
                          "thread, or from a sweep's on_candidate.")
      .def(py::init<>())
      .def(
          "cancel", [](CancelToken &token) { token.flag->store(true); },
          "Asks the job to stop.")
      .def_property_readonly(
          "cancelled",
          [](const CancelToken &token) { return token.flag->load(); })
      .def("__repr__", [](const CancelToken &token) {
        return std::string(token.flag->load() ? "<Cancel: cancelled>"
                                              : "<Cancel>");
      });
  m.def("run_try", &runTry, py::arg("document"), py::arg("op") = py::none(),
        py::arg("stage") = "compile", py::arg("workspace") = py::none(),
        py::arg("repetitions") = 5, py::arg("timeout") = 300.0,
        py::arg("cancel") = py::none(), py::arg("on") = "",
        "Compiles the document with the real iree-compile into a new try "
        "folder of the workspace (stage \"compile\"), reads the kernel's "
        "resources (\"resources\"), or also times it on a device found here "
        "(\"bench\"; on=\"ssh:HOST\" or \"slurm:PARTITION\": there, the module "
        "travelling as a run bundle), and records the try in the "
        "workspace's history. "
        "Returns what `tilescope-cli compile | resources | bench --json` "
        "prints (compile, resources, bench, outcome, try) as a "
        "tilescope.results.TryResult. The GIL is "
        "released while it runs.");
  m.def("verify", &verify, py::arg("document"), py::arg("program") = py::none(),
        py::arg("reference") = py::none(), py::arg("function") = "",
        py::arg("seed") = 1, py::arg("atol") = py::none(),
        py::arg("rtol") = py::none(), py::arg("target") = "",
        py::arg("device") = "", py::arg("workspace") = py::none(),
        py::arg("timeout") = 300.0, py::arg("cancel") = py::none(),
        py::arg("on") = "",
        "A checked run, as `tilescope-cli verify --json` (a "
        "tilescope.results.CheckResult): a dispatch file "
        "(edited or not) is compiled into `program`, the program it came "
        "from, run on deterministic random inputs and every output compared "
        "with the program compiled for the CPU with IREE's own configs (or "
        "`reference`). A program itself has IREE's configs for `target` "
        "checked (default llvm-cpu). It runs where a device is found (the "
        "CPU for llvm-cpu), or on=\"ssh:HOST\" / \"slurm:PARTITION\" (the "
        "tested module there, the reference and comparison here); elsewhere "
        "it is compiled only, and says why. "
        "Recorded in the workspace's history; the GIL is released.");
  m.def(
      "instructions",
      [](const std::filesystem::path &path, bool withInstructions,
         const std::optional<std::filesystem::path> &counters) {
        nlohmann::json kernels = nlohmann::json::array();
        std::vector<std::filesystem::path> files{path};
        std::error_code error;
        if (std::filesystem::is_directory(path, error))
          files = service::assemblyWithSass(
                      service::compileArtifactsIn(path).assembly())
                      .files;
        if (files.empty())
          throw Failure(path.string() +
                        ": no PTX or AMDGPU assembly (a CPU try, or not "
                        "compiled)");
        std::vector<isa::ProfiledKernel> profiled;
        if (counters)
          profiled = valueOr(service::readSourceCountersFile(*counters));
        std::vector<isa::Listing> listings;
        for (const std::filesystem::path &file : files)
          listings.push_back(valueOr(isa::readAssemblyFile(file)));
        const auto laid = isa::overlayFiles(files, listings, profiled);
        for (size_t f = 0; f < files.size(); ++f)
          for (const nlohmann::json &kernel :
               isa::toJson(files[f], listings[f], withInstructions, laid[f]))
            kernels.push_back(kernel);
        return toPython(kernels);
      },
      py::arg("path"), py::arg("instructions") = false,
      py::arg("counters") = py::none(),
      "A compiled kernel's instructions (a .ptx, .sass or .rocmasm file, or "
      "a try folder), classed and cut by its loops: a list of kernels, each "
      "with its regions' counts per class and bits per access, as "
      "`tilescope-cli isa --json` gives them (`instructions=True`: every "
      "instruction too). `counters`: Nsight Compute's source page of the "
      "kernel (`ncu --import R.ncu-rep --page source --print-source sass "
      "--csv`, or a bundle's results/ID.source.csv), laid over each SASS "
      "kernel as its \"profile\" (`isa --counters`).");
  m.def("iree", &ireeInstallation,
        "The IREE this package uses (compiler library, tools, how it was "
        "found: $TILESCOPE_IREE_DIR, the set-up's prefix, or the "
        "environment's iree-base-compiler), as `tilescope-cli doctor` "
        "finds it.");
  m.def("history", &history, py::arg("workspace") = py::none(),
        py::arg("op") = "", py::arg("outcome") = "", py::arg("limit") = 0,
        "The workspace's tries, newest first, each a "
        "tilescope.results.Try with the fields `tilescope-cli history "
        "--json` gives (pandas.DataFrame([t.to_dict() for t in rows]) "
        "takes them).");
}

} // namespace tilescope::python
