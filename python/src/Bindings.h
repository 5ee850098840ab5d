// What the Python module's binding files share: the errors Python sees,
// an op named the way a script names it, and the parse worker the module
// opens files through.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"
#include "core/workbench/Workbench.h"

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace tilescope::service {
class DocumentWorker;
}

namespace tilescope::python {

namespace py = pybind11;

// The module's workbench, built once at import: IREE found as the CLI
// finds it ($TILESCOPE_IREE_DIR, the set-up's prefix where this is a build
// of the source tree), then in the interpreter's own sys.path (an
// iree-base-compiler installed beside the wheel); the worker program
// (tilescope-iree-worker: $TILESCOPE_WORKER, beside this module when
// installed, else this build's); the default workspace.
void makeWorkbench();
const workbench::Workbench &bench();
// The module's workbench with a call's `workspace` argument (absolute) in
// place of its own, where one is given.
workbench::Workbench
benchFor(const std::optional<std::filesystem::path> &workspace);
// The IREE the workbench finds; tilescope.Error when there is none.
tools::IreeInstallation ireeOrRaise();
// The parse worker the module keeps (made on first use; tilescope.Error
// when there is no IREE).
service::DocumentWorker &worker();

// tilescope.Cancel: a flag a script (or another thread) sets to stop a
// running job at its next step.
struct CancelToken {
  std::shared_ptr<std::atomic<bool>> flag =
      std::make_shared<std::atomic<bool>>(false);
};
// The workspace a job's `workspace=` names (None: the default), absolute;
// a job's `timeout=` in seconds, positive, as milliseconds.
std::filesystem::path
workspaceOr(const std::optional<std::filesystem::path> &given);
std::chrono::milliseconds timeoutOf(double seconds);

// The flag of a Cancel passed as `cancel=` (None: no flag).
const std::atomic<bool> *cancelFlagOf(const py::object &cancel);

// tilescope.Error and its kinds; EditError carries the field it names.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct ParseFailure : Failure {
  using Failure::Failure;
};
struct EditFailure : Failure {
  EditFailure(std::string field, const std::string &message)
      : Failure(field.empty() || message.rfind(field + ":", 0) == 0
                    ? message
                    : field + ": " + message),
        field(std::move(field)) {}
  std::string field;
};

// A document as the module holds it: immutable, shared by the objects made
// from it.
using DocumentPtr = std::shared_ptr<document::Document>;

// "D:O" (a dispatch index or name, an op index), an int (dispatch, op 0)
// or a (dispatch, op) tuple; an unknown op raises tilescope.Error.
edit::OpRef opRefOf(const document::Document &document, const py::object &op);

// The value of a Result, or the error raised as `Kind`.
template <typename Kind = Failure, typename T> T valueOr(Result<T> result) {
  if (!result)
    throw Kind(result.error());
  return std::move(*result);
}

// Python callbacks a job calls from its threads: each runs with the GIL
// held; what one raises (or an interrupt that arrived meanwhile) stops the
// job through `stop` and is raised again once the job has returned.
class CallbackGuard {
public:
  explicit CallbackGuard(std::atomic<bool> *stop) : stop(stop) {}
  template <typename F> void call(F &&callback) {
    py::gil_scoped_acquire gil;
    if (raised)
      return;
    try {
      callback();
      if (PyErr_CheckSignals() != 0)
        throw py::error_already_set();
    } catch (py::error_already_set &error) {
      raised.emplace(std::move(error));
      stop->store(true);
    } catch (const py::cast_error &error) {
      // A callback's answer of the wrong type (a list where a bool is
      // read): a TypeError for the caller, never an abort on this thread.
      PyErr_SetString(PyExc_TypeError,
                      (std::string("a callback returned a value of the wrong "
                                   "type (None, True or False is read): ") +
                       error.what())
                          .c_str());
      raised.emplace();
      stop->store(true);
    } catch (const std::exception &error) {
      PyErr_SetString(PyExc_RuntimeError, error.what());
      raised.emplace();
      stop->store(true);
    }
  }
  bool failed() const { return raised.has_value(); }
  // With the GIL held, after the job.
  void raiseAgain() {
    if (raised)
      throw std::move(*raised);
  }

private:
  std::atomic<bool> *stop;
  std::optional<py::error_already_set> raised;
};

// A JSON text as Python objects (dicts, lists, str, int, float, bool).
// A JSON value as the Python objects json.loads would make of its text,
// built directly (no text in between).
py::object toPython(const nlohmann::json &value);
// A job's JSON as the class of tilescope.results that has its fields
// (`className`: "TuneResult", "SweepCandidate", "Try", ...), made by its
// from_dict. With the GIL held.
py::object asResult(const char *className, const nlohmann::json &value);

void bindDocuments(py::module_ &m);
void bindLayouts(py::module_ &m);
void bindPictures(py::module_ &m);
void bindJobs(py::module_ &m);
void bindSweeps(py::module_ &m);
void bindTunes(py::module_ &m);
void bindExports(py::module_ &m);
void bindBanks(py::module_ &m);
void bindConfigs(py::module_ &m);

} // namespace tilescope::python
