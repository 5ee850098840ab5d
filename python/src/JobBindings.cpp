// Jobs: a try (compile, resources read from the compiled kernel, a timed
// run) recorded in a workspace's history, and the history's rows as dicts,
// as `tilescope-cli compile | resources | bench --json` and `history
// --json` give them.
#include "python/src/Bindings.h"

#include "core/export/JsonText.h"
#include "core/jobs/DocumentWorker.h"
#include "core/jobs/History.h"
#include "core/jobs/TryJob.h"
#include "core/jobs/Workspace.h"
#include "core/tools/IreeInstallation.h"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

namespace tilescope::python {
namespace {

std::filesystem::path
workspaceOr(const std::optional<std::filesystem::path> &given) {
  return std::filesystem::absolute(given ? *given : jobs::defaultWorkspace());
}

py::dict runTry(const document::Document &document, const py::object &op,
                const std::string &stage,
                std::optional<std::filesystem::path> workspace, int repetitions,
                double timeoutSeconds) {
  jobs::TryRequest request;
  request.document = &document;
  if (!op.is_none()) {
    const edit::OpRef ref = opRefOf(document, op);
    request.op = std::pair{ref.dispatch, ref.op};
  }
  if (stage == "compile")
    request.upTo = jobs::TryStage::Compile;
  else if (stage == "resources")
    request.upTo = jobs::TryStage::Resources;
  else if (stage == "bench")
    request.upTo = jobs::TryStage::Bench;
  else
    throw Failure("stage is compile, resources or bench, not '" + stage + "'");
  if (repetitions < 1 || repetitions > 1000)
    throw Failure("repetitions must be 1 to 1000");
  if (timeoutSeconds <= 0)
    throw Failure("timeout must be positive (seconds)");
  request.repetitions = repetitions;
  request.timeout =
      std::chrono::milliseconds(static_cast<long long>(timeoutSeconds * 1000));
  const std::filesystem::path folder = workspaceOr(workspace);
  auto iree = valueOr(tools::locateIree());
  std::string report;
  {
    py::gil_scoped_release release;
    request.directory = valueOr(jobs::newTryDirectory(folder));
    request.worker = &worker();
    auto tried = valueOr(jobs::runTry(iree, request));
    nlohmann::json out = tried.report;
    out["file"] = document.path.string();
    out["outcome"] = tried.record.outcome;
    auto id = jobs::recordTry(folder, tried.record);
    out["try"] = id ? nlohmann::json(*id) : nlohmann::json(nullptr);
    if (!id)
      out["not_recorded"] = id.error();
    if (!tried.cannotRun.empty())
      out["cannot_run"] = tried.cannotRun;
    report = exporting::jsonText(out);
  }
  return fromJson(report);
}

py::list history(std::optional<std::filesystem::path> workspace,
                 const std::string &op, const std::string &outcome, int limit) {
  auto opened =
      valueOr(jobs::History::open(jobs::historyFile(workspaceOr(workspace))));
  jobs::HistoryFilter filter;
  filter.op = op;
  filter.outcome = outcome;
  filter.limit = limit;
  nlohmann::json rows = nlohmann::json::array();
  for (const jobs::TryRecord &record : valueOr(opened.list(filter)))
    rows.push_back(jobs::toJson(record));
  return fromJson(exporting::jsonText(rows));
}

} // namespace

void bindJobs(py::module_ &m) {
  m.def("run_try", &runTry, py::arg("document"), py::arg("op") = py::none(),
        py::arg("stage") = "compile", py::arg("workspace") = py::none(),
        py::arg("repetitions") = 5, py::arg("timeout") = 300.0,
        "Compiles the document with the real iree-compile into a new try "
        "folder of the workspace (stage \"compile\"), reads the kernel's "
        "resources (\"resources\"), or also times it on a device found here "
        "(\"bench\"), and records the try in the workspace's history. "
        "Returns what `tilescope-cli compile | resources | bench --json` "
        "prints (compile, resources, bench, outcome, try). The GIL is "
        "released while it runs.");
  m.def("history", &history, py::arg("workspace") = py::none(),
        py::arg("op") = "", py::arg("outcome") = "", py::arg("limit") = 0,
        "The workspace's tries, newest first, each a dict as `tilescope-cli "
        "history --json` gives it (pandas.DataFrame(rows) takes them).");
}

} // namespace tilescope::python
