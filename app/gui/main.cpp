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
#include "core/edit/RootOpContext.h"
#include "core/util/Files.h"
#include "widgets/editor/EditSession.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/WindowServices.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
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

// What the command line asks: which IREE, the window's state once its
// file is open, a screenshot, the window's size and the file.
struct AppOptions {
  std::optional<QString> ireePath;
  StartState state;
  std::optional<QString> screenshot; // PNG
  std::optional<QSize> windowSize;
  QString file;
};

// The options, or the message for a bad one (exit 2).
Result<AppOptions> parseOptions(const QApplication &application) {
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

  AppOptions options;
  if (parser.isSet(ireeOption))
    options.ireePath = parser.value(ireeOption);
  StartState &state = options.state;
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
    if (!state.view)
      return Error{"--view " + parser.value(viewOption).toStdString() +
                   ": not a view; one of " +
                   viewNames.join(", ").toStdString()};
  }
  if (parser.isSet(screenshotOption))
    options.screenshot = parser.value(screenshotOption);
  if (parser.isSet(sizeOption)) {
    const QStringList sides = parser.value(sizeOption).split('x');
    bool wideOk = false, tallOk = false;
    const int wide = sides.size() == 2 ? sides[0].toInt(&wideOk) : 0;
    const int tall = sides.size() == 2 ? sides[1].toInt(&tallOk) : 0;
    if (!wideOk || !tallOk || wide < 320 || tall < 240 || wide > 16384 ||
        tall > 16384)
      return Error{"--window-size " + parser.value(sizeOption).toStdString() +
                   ": give WIDTHxHEIGHT in pixels, 320x240 to 16384x16384"};
    options.windowSize = QSize(wide, tall);
  }
  const QStringList files = parser.positionalArguments();
  options.file = files.isEmpty() ? bundledExample() : files.front();
  return options;
}

// A scripted screenshot: the window saved as `png` once its file is open
// and what it asked in the background is answered (at most
// kScreenshotWaitMs), or with --split-k once IREE's split is; the app then
// quits, 1 where something failed.
void saveScreenshotWhenReady(widgets::MainWindow &window,
                             const StartState &state, const QString &png) {
  auto save = [&window, png](bool ok) {
    if (!window.grab().save(png)) {
      std::cerr << "tilescope: could not write " << png.toStdString() << "\n";
      QApplication::exit(1);
      return;
    }
    QApplication::exit(ok ? 0 : 1);
  };
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
                  << " s without " << pending.join(", ").toStdString() << "\n";
      QTimer::singleShot(200, [save] { save(true); });
    });
    poll->start(100);
  };
  // What the dispatch list shows, on stdout, so a script (and the startup
  // test) can check what the window listed.
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

  auto options = parseOptions(application);
  if (!options) {
    std::cerr << "tilescope: " << options.error() << "\n";
    return 2;
  }

  // One workbench for the window: every file is parsed off the GUI thread
  // by IREE in a child process (tilescope-iree-worker), so a file that
  // crashes IREE's parser costs an error message, not the window; IREE's
  // verdicts, defaults, layouts and split-k are asked through it.
  const workbench::Workbench bench = app::makeWorkbench(options->ireePath);
  widgets::MainWindow::Services services = widgets::servicesOf(bench);
  services.releaseOffer = [bench](const std::filesystem::path &file) {
    return bench.releaseOffer(file, app::kPinnedRelease);
  };
  services.ireePathSetting = app::kIreePathSetting;
  // A scripted picture's edits come from its command line: nothing to keep,
  // and no offer of a previous session's edits in the picture.
  const bool screenshot = options->screenshot.has_value();
  services.keepEditsForRecovery = !screenshot;
  widgets::MainWindow window(widgets::loaderOf(bench), services);
  if (options->windowSize)
    window.resize(*options->windowSize);

  // The asked state, once the file is open; what cannot be done is said on
  // stderr and the status line (a screenshot then fails).
  const StartState &state = options->state;
  QObject::connect(&window, &widgets::MainWindow::documentLoaded, [&] {
    if (auto applied = applyStartState(window, state); !applied) {
      std::cerr << "tilescope: " << applied.error() << "\n";
      window.statusBar()->showMessage(QString::fromStdString(applied.error()));
      if (screenshot)
        QApplication::exit(1);
    }
  });
  if (screenshot)
    saveScreenshotWhenReady(window, state, *options->screenshot);

  window.show();
  if (!options->file.isEmpty())
    window.openFile(options->file);
  else if (screenshot)
    return 1;
  return application.exec();
}
