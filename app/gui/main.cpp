// tilescope: the desktop app.
//
//   tilescope [FILE] [--iree PATH] [--op DISPATCH:OP] [--set FIELD=VALUE]...
//             [--view layouts|lane-basis|subgroup-basis|mma|swizzle|grid]
//             [--screenshot PNG]
//
// With no FILE it opens a bundled example. --op, --set and --view put the
// window in a state (the op selected, its fields edited as undoable steps,
// a view shown), so a test, the README or a doc can reproduce any picture.
#include "app/common/IreeSettings.h"
#include "app/common/RuntimeDirectory.h"
#include "core/document/MlirFile.h"
#include "core/edit/RootOpContext.h"
#include "core/process/Workspace.h"
#include "core/service/IreeConstraints.h"
#include "core/service/IreeDefaults.h"
#include "core/service/IreeLayouts.h"
#include "core/service/SplitK.h"
#include "core/util/Files.h"
#include "widgets/EditSession.h"
#include "widgets/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QProcess>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>

#include <iostream>
#include <memory>
#include <string_view>

using namespace tilescope;

namespace {

// How long a scripted screenshot waits for background answers.
constexpr qint64 kScreenshotWaitMs = 90'000;

// The example opened when no file is given: beside the executable when
// installed, in the source tree when run from a build.
QString bundledExample() {
  const QString relative =
      "examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
  for (const QString &root :
       {QCoreApplication::applicationDirPath() + "/../share/tilescope",
        QString(TILESCOPE_SOURCE_DIR)}) {
    const QString path = QDir(root).filePath(relative);
    if (QFileInfo::exists(path))
      return QDir::cleanPath(path);
  }
  return {};
}

void printDispatchList(const QWidget &window) {
  const auto *tree = window.findChild<QTreeView *>("dispatchTree");
  if (!tree || !tree->model())
    return;
  const QAbstractItemModel &rows = *tree->model();
  auto text = [&rows](int row, int column, const QModelIndex &parent = {}) {
    return rows.index(row, column, parent).data().toString().toStdString();
  };
  for (int i = 0; i < rows.rowCount(); ++i) {
    const QModelIndex dispatch = rows.index(i, 0);
    std::cout << "dispatch " << text(i, 0) << " (" << text(i, 1) << ", "
              << text(i, 2) << ")\n";
    for (int j = 0; j < rows.rowCount(dispatch); ++j)
      std::cout << "  " << text(j, 0, dispatch) << "\n";
  }
  std::cout.flush();
}

// With no display, Qt's xcb plugin aborts with a message about plugins. Say
// what is missing instead; a screenshot needs no display and draws
// offscreen.
bool haveDisplay(int argc, char **argv) {
  if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") ||
      !qEnvironmentVariableIsEmpty("DISPLAY") ||
      !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
    return true;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument(argv[i]);
    // Qt's own -platform NAME picks the platform.
    if (argument == "-platform" || argument == "--platform" ||
        argument.starts_with("-platform=") ||
        argument.starts_with("--platform="))
      return true;
    // A screenshot and the help text need no display.
    if (argument.starts_with("--screenshot") || argument == "--help" ||
        argument == "-h" || argument == "--help-all" ||
        argument == "--version" || argument == "-v") {
      qputenv("QT_QPA_PLATFORM", "offscreen");
      return true;
    }
  }
  std::cerr << "tilescope: no display (DISPLAY and WAYLAND_DISPLAY are not "
               "set). scripts/tilescope.sh run starts the window under Xvfb; "
               "tilescope --screenshot out.png draws it offscreen; "
               "tilescope-cli works without one.\n";
  return false;
}

// What --op, --dispatch, --set and --view ask of the window once its file
// is open.
struct StartState {
  std::optional<std::string> op; // DISPATCH:OP
  QStringList sets;              // FIELD=VALUE
  std::optional<render::OpViewKind> view;
  std::optional<QString> splitKTarget; // show the Split-k tab, ask IREE
};

Result<bool> applyStartState(widgets::MainWindow &window,
                             const StartState &state) {
  const document::Document *document = window.document();
  if (!document)
    return Error{"no document is open"};
  if (state.op) {
    auto ref = edit::findOp(*document, *state.op);
    if (!ref)
      return Error{"--op " + *state.op + ": " + ref.error()};
    window.selectOp(*ref);
  }
  for (const QString &set : state.sets) {
    const qsizetype equals = set.indexOf('=');
    if (equals <= 0)
      return Error{"--set " + set.toStdString() +
                   ": expected FIELD=VALUE, e.g. 'workgroup=[64, 64, 0]'"};
    const auto op = window.selectedOp();
    if (!op)
      return Error{"--set " + set.toStdString() + ": no root op is selected"};
    auto made = window.session()->setField(
        *op, set.left(equals).trimmed().toStdString(),
        set.mid(equals + 1).trimmed().toStdString());
    if (!made)
      return Error{"--set " + set.toStdString() + ": " + made.error()};
  }
  if (state.view)
    window.setView(*state.view);
  if (state.splitKTarget) {
    widgets::SplitKView *view = window.showSplitK();
    view->setTarget(*state.splitKTarget);
    view->analyze();
  }
  return true;
}

// Runs `job` with the IREE at `ireePath` (its tools, and the parse worker
// that loads its library), or says why there is none.
template <typename T, typename Job>
Result<T> withIree(const std::optional<QString> &ireePath, Job job) {
  auto installation = app::locateIree(ireePath);
  if (!installation)
    return Error{installation.error()};
  auto worker = app::documentWorker(ireePath);
  if (!worker)
    return Error{worker.error()};
  return job(*installation, *worker);
}

} // namespace

int main(int argc, char **argv) {
  if (!haveDisplay(argc, argv))
    return 1;
  // What killed Tilescopes left in the temporary folder goes first.
  removeStaleTemporaryDirectories();
  app::provideRuntimeDirectory();
  QApplication application(argc, argv);
  QApplication::setOrganizationName(app::kOrganization);
  QApplication::setApplicationName(app::kApplication);
  QApplication::setApplicationVersion(TILESCOPE_VERSION);
  QApplication::setWindowIcon(QIcon(":/tilescope/tilescope.svg"));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Tilescope: how IREE spreads a GPU dispatch over workgroups, subgroups, "
      "lanes and registers.");
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption ireeOption(
      "iree", "Use the IREE compiler library at PATH.", "PATH");
  const QCommandLineOption screenshotOption(
      "screenshot", "Open FILE, save the window as PNG and quit.", "PNG");
  const QCommandLineOption opOption(
      "op",
      "Select the root op DISPATCH:OP (DISPATCH an index or a name prefix, "
      "OP an index; as 'tilescope-cli dispatches' lists them).",
      "DISPATCH:OP");
  const QCommandLineOption dispatchOption(
      "dispatch", "Select dispatch N (with --op M: its root op M).", "N");
  const QCommandLineOption setOption(
      "set",
      "Edit a field of the selected op, e.g. 'workgroup=[64, 64, 0]' "
      "(repeat for more; each is one undoable step).",
      "FIELD=VALUE");
  const QStringList viewNames = render::opViewNames();
  const QCommandLineOption viewOption(
      "view", "Show this view of the op: " + viewNames.join(", ") + ".",
      "VIEW");
  const QCommandLineOption splitKOption(
      "split-k",
      "Show the Split-k tab and ask IREE how it splits the program's "
      "reductions for TARGET (gfx942, sm_90, ...).",
      "TARGET");
  const QCommandLineOption sizeOption(
      "window-size",
      "Open the window WIDTHxHEIGHT pixels (a smaller screen's, for a "
      "screenshot: 1280x800).",
      "WxH");
  parser.addOptions({ireeOption, screenshotOption, opOption, dispatchOption,
                     setOption, viewOption, splitKOption, sizeOption});
  parser.addPositionalArgument("FILE", "An IREE MLIR file to open.", "[FILE]");
  parser.process(application);

  std::optional<QString> ireePath;
  if (parser.isSet(ireeOption))
    ireePath = parser.value(ireeOption);
  StartState state;
  if (parser.isSet(dispatchOption))
    state.op = (parser.value(dispatchOption) + ":" +
                (parser.isSet(opOption) ? parser.value(opOption) : "0"))
                   .toStdString();
  else if (parser.isSet(opOption))
    state.op = parser.value(opOption).toStdString();
  state.sets = parser.values(setOption);
  if (parser.isSet(splitKOption))
    state.splitKTarget = parser.value(splitKOption);
  if (parser.isSet(viewOption)) {
    state.view = render::opViewFromName(parser.value(viewOption));
    if (!state.view) {
      std::cerr << "tilescope: --view "
                << parser.value(viewOption).toStdString()
                << ": not a view; one of " << viewNames.join(", ").toStdString()
                << "\n";
      return 2;
    }
  }

  // Each file is parsed off the GUI thread by IREE in a child process
  // (tilescope-iree-worker): a file that crashes IREE's parser costs an
  // error message, not the window. A missing IREE is reported like a parse
  // error.
  auto loader =
      [ireePath](
          const std::filesystem::path &path,
          const std::atomic<bool> *cancel) -> Result<document::Document> {
    auto worker = app::documentWorker(ireePath);
    if (!worker)
      return Error{worker.error()};
    worker->cancel = cancel; // Cancel stops the worker's parse
    return worker->parseFile(path);
  };

  // IREE's verdict on edited text comes from the same worker; the run
  // panel drives the same IREE's tools in child processes.
  widgets::MainWindow::Services services;
  services.parseText =
      [ireePath](const std::string &text,
                 const std::string &bufferName) -> Result<document::Document> {
    auto worker = app::documentWorker(ireePath);
    if (!worker)
      return Error{worker.error()};
    return worker->parseText(text, bufferName);
  };
  services.installation = [ireePath] { return app::locateIree(ireePath); };
  services.documentWorker = [ireePath] {
    return app::documentWorker(ireePath);
  };
  // IREE's verdict on the selected op: its pipeline constraints, checked by
  // the pinned iree-opt on the document as it stands.
  services.ireeConstraints = [ireePath](const document::Document &document,
                                        edit::OpRef op,
                                        const std::atomic<bool> *cancel)
      -> Result<service::ConstraintVerdict> {
    return withIree<service::ConstraintVerdict>(
        ireePath,
        [&](const tools::IreeInstallation &installation,
            service::DocumentWorker &worker)
            -> Result<service::ConstraintVerdict> {
          return service::judgedConstraintVerdict(
              installation, worker, document, std::chrono::minutes(2), cancel,
              op);
        });
  };
  // IREE's own choice: the document's configs stripped and chosen again by
  // the pinned iree-opt, read back by the same worker.
  services.ireeDefaults = [ireePath](const document::Document &document) {
    return withIree<service::DefaultConfigs>(
        ireePath, [&](const tools::IreeInstallation &installation,
                      service::DocumentWorker &worker) {
          return service::ireeDefaultConfigs(installation, worker, document);
        });
  };
  // IREE's own layouts: its GPU lowering run by the pinned iree-opt on the
  // document as it stands, what it printed read back by the same worker.
  services.ireeLayouts = [ireePath](const document::Document &document,
                                    size_t dispatch,
                                    const std::atomic<bool> *cancel) {
    return withIree<service::IreeLayoutAnswer>(
        ireePath, [&](const tools::IreeInstallation &installation,
                      service::DocumentWorker &worker) {
          service::IreeLayoutRequest request;
          request.dispatch = dispatch;
          request.cancel = cancel;
          // Edits not saved: the text IREE was given is kept here, for
          // the command the tab shows.
          request.inputCopy = process::defaultWorkspace() / "iree-layouts" /
                              (document.path.stem().string() + ".edited.mlir");
          worker.cancel = cancel;
          return service::ireeLayouts(installation, worker, document, request);
        });
  };
  // Split-k: iree-compile in child processes; what IREE printed (the split
  // point, the flow module) read by IREE in the parse worker, as the command
  // line's split-k has it read: this process never loads IREE's library.
  services.splitK = [ireePath](const service::SplitKRequest &request) {
    return withIree<service::SplitKAnalysis>(
        ireePath, [&](const tools::IreeInstallation &installation,
                      service::DocumentWorker &worker) {
          return service::analyzeSplitK(installation, worker, request);
        });
  };
  services.applySplitK =
      [ireePath](const service::SplitKRequest &request,
                 const service::SplitKAnalysis &analysis,
                 const std::vector<document::SplitChoice> &choices) {
        return withIree<service::SplitKApplied>(
            ireePath, [&](const tools::IreeInstallation &installation,
                          service::DocumentWorker &worker) {
              return service::applySplitK(installation, worker, request,
                                          analysis, choices);
            });
      };
  services.workspace = process::defaultWorkspace();
  // Help > About: where the IREE in use is, and what iree-compile says it is.
  services.ireeVersion = [ireePath]() -> std::string {
    auto installation = app::locateIree(ireePath);
    if (!installation)
      return installation.error();
    std::string text = installation->compilerLibrary.string() + " (found by " +
                       installation->foundBy + ")";
    const auto compile = installation->tools.find("iree-compile");
    if (compile == installation->tools.end())
      return text + "\niree-compile not found";
    QProcess process;
    process.start(QString::fromStdString(compile->second.string()),
                  {"--version"});
    if (!process.waitForFinished(10000))
      return text + "\niree-compile --version did not answer";
    return text + "\n" +
           QString::fromLocal8Bit(process.readAllStandardOutput())
               .trimmed()
               .toStdString();
  };

  // A file IREE refused: its conversion for the pinned release, when the
  // config model has one and IREE reads the result.
  services.releaseOffer = [ireePath](const std::filesystem::path &file)
      -> std::optional<service::ReleaseOffer> {
    auto worker = app::documentWorker(ireePath);
    auto text = document::readMlirFile(file);
    if (!worker || !text)
      return std::nullopt;
    return service::releaseOffer(*worker, *text, file.string(),
                                 app::kPinnedRelease);
  };
  // Edit > Settings: the IREE a path names, found the way every job finds
  // it (the command line's --iree still comes first).
  services.ireePathSetting = app::kIreePathSetting;
  services.checkIree = [ireePath](const QString &path) {
    return tools::describeIreeSetting(
        path.trimmed().toStdString(),
        ireePath ? std::optional<std::filesystem::path>(ireePath->toStdString())
                 : std::nullopt);
  };

  const bool screenshot = parser.isSet(screenshotOption);
  // A scripted picture's edits come from its command line: nothing to keep,
  // and no offer of a previous session's edits in the picture.
  services.keepEditsForRecovery = !screenshot;
  widgets::MainWindow window(loader, services);
  if (parser.isSet(sizeOption)) {
    const QStringList sides = parser.value(sizeOption).split('x');
    bool wideOk = false, tallOk = false;
    const int wide = sides.size() == 2 ? sides[0].toInt(&wideOk) : 0;
    const int tall = sides.size() == 2 ? sides[1].toInt(&tallOk) : 0;
    if (!wideOk || !tallOk || wide < 320 || tall < 240 || wide > 16384 ||
        tall > 16384) {
      std::cerr << "tilescope: --window-size "
                << parser.value(sizeOption).toStdString()
                << ": give WIDTHxHEIGHT in pixels, 320x240 to 16384x16384\n";
      return 2;
    }
    window.resize(wide, tall);
  }
  const QStringList files = parser.positionalArguments();
  const QString file = files.isEmpty() ? bundledExample() : files.front();

  // The asked state, once the file is open; what cannot be done is said on
  // stderr and the status line (a screenshot then fails).
  QObject::connect(&window, &widgets::MainWindow::documentLoaded, [&] {
    if (auto applied = applyStartState(window, state); !applied) {
      std::cerr << "tilescope: " << applied.error() << "\n";
      window.statusBar()->showMessage(QString::fromStdString(applied.error()));
      if (screenshot)
        QApplication::exit(1);
    }
  });
  if (screenshot) {
    const QString png = parser.value(screenshotOption);
    auto save = [&window, png](bool ok) {
      if (!window.grab().save(png)) {
        std::cerr << "tilescope: could not write " << png.toStdString() << "\n";
        QApplication::exit(1);
        return;
      }
      QApplication::exit(ok ? 0 : 1);
    };
    // What the dispatch list shows, on stdout, so a script (and the startup
    // test) can check what the window listed.
    // With --split-k the picture waits for IREE's answer.
    if (state.splitKTarget)
      QObject::connect(window.showSplitK(), &widgets::SplitKView::finished,
                       [save](bool ok, const QString &summary) {
                         if (!ok)
                           std::cerr << summary.toStdString() << "\n";
                         QTimer::singleShot(200, [save, ok] { save(ok); });
                       });
    // The picture shows answers, not "Asking IREE…": it waits for what the
    // window asked in the background, at most kScreenshotWait.
    auto saveWhenAnswered = [save, &window] {
      auto *poll = new QTimer(&window);
      auto waited = std::make_shared<QElapsedTimer>();
      waited->start();
      QObject::connect(poll, &QTimer::timeout, [save, &window, poll, waited] {
        const QStringList pending = window.pendingAnswers();
        if (!pending.isEmpty() && waited->elapsed() < kScreenshotWaitMs)
          return;
        poll->stop();
        if (!pending.isEmpty())
          std::cerr << "tilescope: saved after " << kScreenshotWaitMs / 1000
                    << " s without " << pending.join(", ").toStdString()
                    << "\n";
        QTimer::singleShot(200, [save] { save(true); });
      });
      poll->start(100);
    };
    QObject::connect(&window, &widgets::MainWindow::documentLoaded,
                     [saveWhenAnswered, &window,
                      waitForSplitK = state.splitKTarget.has_value()] {
                       printDispatchList(window);
                       if (!waitForSplitK)
                         saveWhenAnswered();
                     });
    QObject::connect(&window, &widgets::MainWindow::loadFailed,
                     [save](const QString &message) {
                       std::cerr << message.toStdString() << "\n";
                       QTimer::singleShot(200, [save] { save(false); });
                     });
  }

  window.show();
  if (!file.isEmpty())
    window.openFile(file);
  else if (screenshot)
    return 1;
  return application.exec();
}
