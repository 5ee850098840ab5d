#include "core/workbench/Workbench.h"

#include "core/document/MlirFile.h"
#include "core/process/Process.h"
#include "core/process/Workspace.h"
#include "core/util/Text.h"

#include <utility>

namespace tilescope::workbench {

Workbench::Workbench(WorkbenchOptions options) : given(std::move(options)) {
  if (given.workspace.empty())
    given.workspace = process::defaultWorkspace();
}

tools::IreeSearchOptions Workbench::ireeSearch() const {
  tools::IreeSearchOptions search = given.iree;
  if (given.savedIreePath)
    if (auto saved = given.savedIreePath(); saved && !saved->empty())
      search.settingsPath = *saved;
  return search;
}

Result<tools::IreeInstallation> Workbench::iree() const {
  return tools::locateIree(ireeSearch());
}

Result<service::DocumentWorker>
Workbench::worker(const std::atomic<bool> *cancel) const {
  auto installation = iree();
  if (!installation)
    return Error{installation.error()};
  service::DocumentWorker made(given.workerProgram,
                               installation->compilerLibrary);
  made.cancel = cancel;
  return made;
}

Result<document::Document>
Workbench::parseFile(const std::filesystem::path &path,
                     const std::atomic<bool> *cancel) const {
  auto parser = worker(cancel);
  if (!parser)
    return Error{parser.error()};
  return parser->parseFile(path);
}

Result<document::Document>
Workbench::parseText(const std::string &text,
                     const std::string &bufferName) const {
  auto parser = worker();
  if (!parser)
    return Error{parser.error()};
  return parser->parseText(text, bufferName);
}

session::SessionServices Workbench::sessionServices() const {
  session::SessionServices services;
  // Copies of this workbench: a session may outlive the object that
  // opened it (Python keeps sessions past their module's calls).
  services.printAttribute =
      [bench = *this](const std::string &text) -> Result<std::string> {
    auto printer = bench.worker();
    if (!printer)
      return Error{printer.error()};
    return printer->printAttribute(text);
  };
  services.parseText = [bench = *this](const std::string &text,
                                       const std::string &name) {
    return bench.parseText(text, name);
  };
  return services;
}

std::unique_ptr<session::Session>
Workbench::open(document::Document document) const {
  auto session = std::make_unique<session::Session>(sessionServices());
  session->open(std::move(document));
  return session;
}

namespace {

// Runs `job` with IREE's installation and a worker, or says why there is
// none.
template <typename Job>
auto withIree(const Workbench &bench, const std::atomic<bool> *cancel, Job job)
    -> decltype(job(std::declval<tools::IreeInstallation &>(),
                    std::declval<service::DocumentWorker &>())) {
  auto installation = bench.iree();
  if (!installation)
    return Error{installation.error()};
  service::DocumentWorker worker(bench.options().workerProgram,
                                 installation->compilerLibrary);
  worker.cancel = cancel;
  return job(*installation, worker);
}

} // namespace

Result<service::ConstraintVerdict> Workbench::constraints(
    const document::Document &document, const std::optional<edit::OpRef> &only,
    const std::atomic<bool> *cancel, std::chrono::milliseconds timeout) const {
  return withIree(*this, cancel,
                  [&](const tools::IreeInstallation &installation,
                      service::DocumentWorker &worker) {
                    return service::judgedConstraintVerdict(
                        installation, worker, document, timeout, cancel, only);
                  });
}

Result<service::DefaultConfigs>
Workbench::defaults(const document::Document &document) const {
  return withIree(*this, nullptr,
                  [&](const tools::IreeInstallation &installation,
                      service::DocumentWorker &worker) {
                    return service::ireeDefaultConfigs(installation, worker,
                                                       document);
                  });
}

Result<service::IreeLayoutAnswer>
Workbench::layouts(const document::Document &document, size_t dispatch,
                   const std::atomic<bool> *cancel) const {
  return withIree(
      *this, cancel,
      [&](const tools::IreeInstallation &installation,
          service::DocumentWorker &worker) {
        service::IreeLayoutRequest request;
        request.dispatch = dispatch;
        request.cancel = cancel;
        // Edits not saved: the text IREE was given is kept, for
        // the command shown beside the answer.
        request.inputCopy = given.workspace / "iree-layouts" /
                            (document.path.stem().string() + ".edited.mlir");
        return service::ireeLayouts(installation, worker, document, request);
      });
}

Result<service::SplitKAnalysis>
Workbench::splitK(const service::SplitKRequest &request) const {
  return withIree(*this, nullptr,
                  [&](const tools::IreeInstallation &installation,
                      service::DocumentWorker &worker) {
                    return service::analyzeSplitK(installation, worker,
                                                  request);
                  });
}

Result<service::SplitKApplied> Workbench::applySplitK(
    const service::SplitKRequest &request,
    const service::SplitKAnalysis &analysis,
    const std::vector<document::SplitChoice> &choices) const {
  return withIree(*this, nullptr,
                  [&](const tools::IreeInstallation &installation,
                      service::DocumentWorker &worker) {
                    return service::applySplitK(installation, worker, request,
                                                analysis, choices);
                  });
}

std::optional<service::ReleaseOffer>
Workbench::releaseOffer(const std::filesystem::path &file,
                        const std::string &release) const {
  auto parser = worker();
  auto text = document::readMlirFile(file);
  if (!parser || !text)
    return std::nullopt;
  return service::releaseOffer(*parser, *text, file.string(), release);
}

std::string Workbench::ireeVersion() const {
  auto installation = iree();
  if (!installation)
    return installation.error();
  std::string text = installation->compilerLibrary.string() + " (found by " +
                     installation->foundBy + ")";
  const auto compile = installation->tools.find(tools::kIreeCompile);
  if (compile == installation->tools.end())
    return text + "\niree-compile not found";
  process::ProcessSpec spec;
  spec.program = compile->second;
  spec.arguments = {"--version"};
  spec.timeout = std::chrono::seconds(10);
  const process::ProcessResult ran = process::runProcess(spec);
  if (!ran.succeeded())
    return text + "\niree-compile --version " + ran.describe();
  return text + "\n" + std::string(trimmed(ran.standardOutput));
}

} // namespace tilescope::workbench
