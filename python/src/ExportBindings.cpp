// What leaves Tilescope for IREE or another machine: a tuning spec of the
// document's configs (as `tilescope-cli export-spec` writes it), and run
// bundles of the history's compiled tries with their results brought back
// (`tilescope-cli bundle` / `import-results`).
#include "python/src/Bindings.h"

#include "core/export/TuningSpec.h"
#include "core/process/Workspace.h"
#include "core/tools/IreeInstallation.h"
#include "core/tries/BundleTries.h"
#include "core/tune/SpecProof.h"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

namespace tilescope::python {
namespace {

std::string tuningSpec(const document::Document &document,
                       const std::vector<py::object> &ops) {
  if (ops.empty())
    throw Failure("name at least one root op for the spec");
  std::vector<exporting::SpecOp> chosen;
  for (const py::object &op : ops) {
    const edit::OpRef ref = opRefOf(document, op);
    chosen.push_back(
        {static_cast<int>(ref.dispatch), static_cast<int>(ref.op), {}});
  }
  // Ops that are not contractions are matched by their bodies, printed by
  // IREE in the worker.
  return valueOr(tune::tuningSpecOf(worker(), document, std::move(chosen)));
}

tries::History
historyOf(const std::optional<std::filesystem::path> &workspace) {
  return valueOr(
      tries::History::open(tries::historyFile(workspaceOr(workspace))));
}

std::filesystem::path bundle(const std::filesystem::path &directory,
                             const std::vector<long long> &tries,
                             const std::string &sweep,
                             std::optional<std::filesystem::path> workspace) {
  if (tries.empty() && sweep.empty())
    throw Failure("name the tries: tries=[ID, ...] or sweep=NAME");
  tries::History history = historyOf(workspace);
  std::vector<tries::TryRecord> records;
  if (!sweep.empty())
    records = valueOr(tries::compiledTriesOfSweep(history, sweep));
  for (long long id : tries)
    records.push_back(valueOr(tries::bundledTryOf(history, id)));
  auto iree = ireeOrRaise();
  py::gil_scoped_release release;
  return valueOr(tries::bundleTries(records, directory, iree));
}

py::dict importResults(const std::filesystem::path &directory,
                       std::optional<std::filesystem::path> workspace) {
  tries::History history = historyOf(workspace);
  return toPython(
      tries::toJson(valueOr(tries::importBundleResults(directory, history))));
}

} // namespace

void bindExports(py::module_ &m) {
  m.def("tuning_spec", &tuningSpec, py::arg("document"), py::arg("ops"),
        "The tuning spec IREE takes (--iree-codegen-tuning-spec-path) that "
        "gives each named root op (\"D:O\") its config as the document "
        "holds it (an Editor's document carries the edits), as "
        "`tilescope-cli export-spec` writes it: a contraction matched by "
        "its types, maps and sizes, any other op by its body as IREE "
        "prints it.");
  m.def("bundle", &bundle, py::arg("directory"),
        py::arg("tries") = std::vector<long long>{}, py::arg("sweep") = "",
        py::arg("workspace") = py::none(),
        "Writes compiled tries of the history (by id, or a sweep's newest "
        "compiled try of each candidate) as a run bundle: the modules, "
        "IREE's runtime tools and run.sh, for a machine with the GPU and no "
        "compiler. Returns the folder, as `tilescope-cli bundle`.");
  m.def("import_results", &importResults, py::arg("directory"),
        py::arg("workspace") = py::none(),
        "Reads what a bundle's run.sh measured back into the history, each "
        "module a bench row of the try it came from (modules imported "
        "before are left), and how the cost model's order agreed with the "
        "measured one: `tilescope-cli import-results --json`.");
}

} // namespace tilescope::python
