// The bar that offers to configure a program that holds no dispatches yet
// (a model's linalg, torch or ONNX-imported MLIR, as a person opens it): for
// the target chosen in the bar, IREE configures it in the background
// (core/service/ConfigureProgram, as `tilescope-cli configure` does) into
// the workspace, and the configured program is opened in its place.
#pragma once

#include "core/document/Document.h"
#include "core/util/Result.h"
#include "widgets/editor/OfferBar.h"
#include "widgets/views/LatestAnswer.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

class QComboBox;

namespace tilescope::widgets {

struct WindowServices;

class ConfigureBar : public OfferBar {
  Q_OBJECT

public:
  // Configures `source` for `target` (named as the command line names it:
  // "gfx942", "sm_90", "llvm-cpu"); the configured file, or why not.
  using Configure = std::function<Result<std::filesystem::path>(
      const std::filesystem::path &source, const std::string &target,
      const std::atomic<bool> *cancel)>;
  // IREE's configure through the window's services (its IREE, its parse
  // worker), the configured file written under the workspace; unset where
  // the window has no IREE.
  static Configure through(const WindowServices &services);

  // `configure` unset: nothing is ever offered.
  explicit ConfigureBar(Configure configure, QWidget *parent = nullptr);
  ~ConfigureBar() override;

  // A document was opened: offered where it is a program with no
  // dispatches; otherwise no offer stands (an answer still out is dropped).
  void opened(const document::Document &document);
  bool offersConfiguring() const { return !source.empty(); }
  bool configuring() const { return answer->busy(); }
  // Configures the offered program for `target` (what Configure does).
  void configureFor(const QString &target);

signals:
  // Configured: the window opens `path`.
  void configured(const QString &path);
  // Not configured: why (the bar says it too).
  void failed(const QString &message);

private:
  Configure configure;
  QComboBox *targets;
  std::filesystem::path source;
  std::unique_ptr<LatestAnswer<Result<std::filesystem::path>>> answer;
};

} // namespace tilescope::widgets
