#include "widgets/window/WindowServices.h"

namespace tilescope::widgets {

// Each service holds a copy of the workbench: it is called on worker
// threads, long after the app's main() handed it over.
WindowLoader loaderOf(const workbench::Workbench &bench) {
  return [bench](const std::filesystem::path &path,
                 const std::atomic<bool> *cancel) {
    return bench.parseFile(path, cancel);
  };
}

WindowServices servicesOf(const workbench::Workbench &bench) {
  WindowServices services;
  services.parseText = [bench](const std::string &text,
                               const std::string &bufferName) {
    return bench.parseText(text, bufferName);
  };
  services.workspace = bench.workspace();
  services.bench = std::make_shared<const workbench::Workbench>(bench);
  services.ireeConstraints = [bench](const document::Document &document,
                                     edit::OpRef op,
                                     const std::atomic<bool> *cancel) {
    return bench.constraints(document, op, cancel);
  };
  services.ireeDefaults = [bench](const document::Document &document) {
    return bench.defaults(document);
  };
  services.ireeLayouts = [bench](const document::Document &document,
                                 size_t dispatch,
                                 const std::atomic<bool> *cancel) {
    return bench.layouts(document, dispatch, cancel);
  };
  services.splitK = [bench](const service::SplitKRequest &request) {
    return bench.splitK(request);
  };
  services.applySplitK =
      [bench](const service::SplitKRequest &request,
              const service::SplitKAnalysis &analysis,
              const std::vector<document::SplitChoice> &choices) {
        return bench.applySplitK(request, analysis, choices);
      };
  services.ireeVersion = [bench] { return bench.ireeVersion(); };
  // Edit > Settings: the IREE a path names, found the way every job finds
  // it (the command line's path still comes first).
  services.checkIree = [bench](const QString &path) {
    return tools::describeIreeSetting(path.trimmed().toStdString(),
                                      bench.options().iree.commandLinePath);
  };
  return services;
}

} // namespace tilescope::widgets
