#include "widgets/window/ConfigureBar.h"

#include "core/process/Workspace.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/IreeCommands.h"
#include "widgets/window/WindowServices.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// A program a person would configure: function bodies to lower, and no
// dispatch of IREE's yet.
bool isUnconfiguredProgram(const document::Document &document) {
  return document.dispatches.empty() &&
         document.text.find("func.func") != std::string::npos &&
         document.text.find("hal.executable") == std::string::npos;
}

} // namespace

ConfigureBar::Configure ConfigureBar::through(const WindowServices &services) {
  if (!services.bench)
    return {};
  return [bench = services.bench,
          folder = (services.workspace.empty() ? process::defaultWorkspace()
                                               : services.workspace) /
                   "configured"](
             const std::filesystem::path &program, const std::string &target,
             const std::atomic<bool> *cancel) -> Result<std::filesystem::path> {
    auto named = service::compileTarget(target);
    if (!named)
      return Error{named.error()};
    auto iree = bench->iree();
    if (!iree)
      return Error{iree.error()};
    auto worker = bench->worker(cancel);
    if (!worker)
      return Error{worker.error()};
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec)
      return Error{"cannot create " + folder.string() + ": " + ec.message()};
    service::ConfigureRequest request;
    request.source = program;
    request.target = *named;
    request.output = folder / service::configuredFileName(program, *named);
    request.cancel = cancel;
    auto configured = service::configureProgram(*iree, *worker, request);
    if (!configured)
      return Error{configured.error()};
    return request.output;
  };
}

ConfigureBar::ConfigureBar(Configure configureProgram, QWidget *parent)
    : OfferBar("Configure", "Dismiss", "configureButton", parent),
      configure(std::move(configureProgram)), targets(new QComboBox) {
  setObjectName("configureBar");
  targets->setObjectName("configureTarget");
  targets->setEditable(true);
  targets->addItems({"gfx942", "sm_90", "llvm-cpu", "gfx950", "sm_80"});
  targets->setToolTip("What IREE configures the program for: a GPU chip "
                      "(gfx942, sm_90, ...) or llvm-cpu");
  // The target beside the button that uses it.
  if (auto *row = qobject_cast<QHBoxLayout *>(layout()))
    row->insertWidget(row->indexOf(acceptButton()), targets);
  connect(this, &OfferBar::accepted, this,
          [this] { configureFor(targets->currentText()); });
  answer = std::make_unique<LatestAnswer<Result<std::filesystem::path>>>(
      [this](Result<std::filesystem::path> done) {
        acceptButton()->setEnabled(true);
        if (!done) {
          offer("IREE could not configure " + qs(source.filename().string()) +
                ": " + qs(done.error()).section('\n', 0, 2));
          emit failed(qs(done.error()));
          return;
        }
        hide();
        source.clear();
        emit configured(qs(done->string()));
      });
}

// The question still out is cancelled and waited for, its answer dropped,
// before the bar it would fill goes.
ConfigureBar::~ConfigureBar() { answer.reset(); }

void ConfigureBar::opened(const document::Document &document) {
  answer->drop();
  acceptButton()->setEnabled(true);
  source.clear();
  hide();
  if (!configure || !isUnconfiguredProgram(document))
    return;
  source = document.path;
  offer(QFileInfo(qs(source.string())).fileName() +
        " is a program with no dispatches yet: IREE configures it for a "
        "target, and the configured program opens here.");
}

void ConfigureBar::configureFor(const QString &target) {
  if (source.empty() || target.trimmed().isEmpty())
    return;
  acceptButton()->setEnabled(false);
  offer("Configuring " + QFileInfo(qs(source.string())).fileName() + " for " +
        target.trimmed() + " with IREE…");
  answer->ask([configure = configure, program = source,
               chosen = target.trimmed().toStdString()](
                  const std::atomic<bool> *cancel) {
    return configure(program, chosen, cancel);
  });
}

} // namespace tilescope::widgets
