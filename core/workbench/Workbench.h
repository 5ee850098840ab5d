// The core wired once: which IREE (its library, its tools and the parse
// worker that loads it), where tries and their history live, and a Session
// always given IREE's printer and parser. The window, the command line and
// Python each build one Workbench from their own options (a command line's
// --iree, the window's settings, the interpreter's sys.path) and reach IREE
// through it and nothing else, so an edit, a verdict or a default is asked
// of IREE the same way from every front end.
//
// A Workbench holds only where things are: IREE is looked up per question
// (a person may point the window at another IREE between two), parse
// workers are pooled by service::DocumentWorker, and every method may be
// called from any thread.
#pragma once

#include "core/document/Document.h"
#include "core/edit/RootOpContext.h"
#include "core/run/CheckJob.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeConstraints.h"
#include "core/service/IreeDefaults.h"
#include "core/service/IreeLayouts.h"
#include "core/service/ReleaseOffer.h"
#include "core/service/SplitK.h"
#include "core/session/Session.h"
#include "core/tools/IreeInstallation.h"
#include "core/tries/TryJob.h"
#include "core/util/Result.h"
#include "core/workbench/Jobs.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::workbench {

struct WorkbenchOptions {
  // How IREE is found (tools::locateIree): a command line's path, the
  // environment, Python packages, the project prefix.
  tools::IreeSearchOptions iree;
  // The path a person saved in the front end's settings, read at each
  // question (the window's Edit > Settings changes it while it runs);
  // unset or empty: none.
  std::function<std::optional<std::filesystem::path>()> savedIreePath;
  // tilescope-iree-worker, the process IREE's parser runs in.
  std::filesystem::path workerProgram;
  // Where tries and their history live; empty: process::defaultWorkspace().
  std::filesystem::path workspace;
};

class Workbench {
public:
  explicit Workbench(WorkbenchOptions options);

  const WorkbenchOptions &options() const { return given; }
  const std::filesystem::path &workspace() const { return given.workspace; }
  // The search as it stands now (the saved path read afresh).
  tools::IreeSearchOptions ireeSearch() const;

  // The IREE found, or why none.
  Result<tools::IreeInstallation> iree() const;
  // A parse worker loading that IREE; `cancel` set stops its requests.
  Result<service::DocumentWorker>
  worker(const std::atomic<bool> *cancel = nullptr) const;

  // A file or an edited text read by IREE in the worker.
  Result<document::Document>
  parseFile(const std::filesystem::path &path,
            const std::atomic<bool> *cancel = nullptr) const;
  Result<document::Document> parseText(const std::string &text,
                                       const std::string &bufferName) const;

  // What every Session is given: IREE's printer for an edited attribute
  // and IREE's parser for the whole edited text (each says why not when
  // there is no IREE).
  session::SessionServices sessionServices() const;
  // A session on `document`, wired as above.
  std::unique_ptr<session::Session> open(document::Document document) const;

  // IREE's answers on a document as it stands (core/service).
  Result<service::ConstraintVerdict> constraints(
      const document::Document &document,
      const std::optional<edit::OpRef> &only = std::nullopt,
      const std::atomic<bool> *cancel = nullptr,
      std::chrono::milliseconds timeout = std::chrono::minutes(2)) const;
  Result<service::DefaultConfigs>
  defaults(const document::Document &document) const;
  // IREE's layouts of one dispatch; the text IREE was given is kept in the
  // workspace (iree-layouts/NAME.edited.mlir) for the command shown.
  Result<service::IreeLayoutAnswer>
  layouts(const document::Document &document, size_t dispatch,
          const std::atomic<bool> *cancel = nullptr) const;
  Result<service::SplitKAnalysis>
  splitK(const service::SplitKRequest &request) const;
  Result<service::SplitKApplied>
  applySplitK(const service::SplitKRequest &request,
              const service::SplitKAnalysis &analysis,
              const std::vector<document::SplitChoice> &choices) const;
  // A file IREE refused, converted for `release` where that makes one IREE
  // reads; none otherwise.
  std::optional<service::ReleaseOffer>
  releaseOffer(const std::filesystem::path &file,
               const std::string &release) const;
  // Where the IREE in use is and what iree-compile --version says, or why
  // there is none.
  std::string ireeVersion() const;

  // Jobs (Jobs.h): a front end's choice checked and made the core's
  // request, filled with this workbench's parse worker and workspace; the
  // front end adds its callbacks and cancel flag, then runs it here with
  // the IREE this workbench finds.
  Checked<tune::TuneRequest> tuneRequest(const TuneChoice &choice) const;
  Checked<tune::TuneResult> tune(const tune::TuneRequest &request) const;
  Checked<sweep::SweepRequest> sweepRequest(const document::Document &document,
                                            const SweepJobChoice &choice) const;
  // Where the candidates come from (IREE's space, the axes or the rules'
  // neighbours): the request gets its points or axes and its name.
  Checked<sweep::PreparedSweep>
  prepareSweep(sweep::SweepRequest &request,
               const SweepJobChoice &choice) const;
  // Each candidate applied and judged, IREE's verdict on each where the
  // request asks for it; nothing compiled. IREE asked and unable to answer
  // refuses the plan, unless `keepWithoutVerdicts` keeps it with the reason
  // in its ireeProblem (the Sweep panel shows the candidates beside it).
  Checked<sweep::SweepPlanned>
  planSweep(const sweep::SweepRequest &request,
            bool keepWithoutVerdicts = false) const;
  Checked<sweep::SweepResult> runSweep(sweep::SweepRequest request) const;
  // A try (compile, resources, a timed run) with this workbench's IREE; a
  // root op of a whole program is tried on its dispatch alone, read back by
  // this workbench's parse worker. What went wrong in the try itself is in
  // its result; a refusal is a try that could not start.
  Checked<tries::TryResult> runTry(tries::TryRequest request) const;
  // A checked run: the program with the edited dispatch (or IREE's own
  // configs) against the CPU reference.
  Checked<run::CheckResult> check(const run::CheckRequest &request) const;

private:
  WorkbenchOptions given;
};

} // namespace tilescope::workbench
