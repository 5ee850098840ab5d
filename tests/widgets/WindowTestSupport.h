// The main window with the real IREE behind it, as the app builds it (the
// parse worker, the pinned tools), for the window tests.
#pragma once

#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeConstraints.h"
#include "core/service/IreeDefaults.h"
#include "core/service/IreeLayouts.h"
#include "core/service/ReleaseOffer.h"
#include "widgets/window/MainWindow.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QCoreApplication>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <memory>

namespace tilescope::test {

// Where a test saves its pictures (TILESCOPE_SCREENSHOT_DIR; unset: none).
inline void windowScreenshot(QWidget &window, const QString &name) {
  if (const QString dir = qEnvironmentVariable("TILESCOPE_SCREENSHOT_DIR");
      !dir.isEmpty())
    window.grab().save(dir + "/" + name + ".png");
}

// A cell of a table view's model, as shown.
inline QString cell(const QAbstractItemView *view, int row, int column) {
  return view->model()->index(row, column).data().toString();
}

// Types `text` into a config field's box and presses Enter, as a person
// would; the queued commit is applied before it returns.
inline void typeAndEnter(widgets::MainWindow &window, const QString &field,
                         const QString &text) {
  auto *box = window.findChild<QLineEdit *>("field:" + field);
  QVERIFY2(box, qPrintable("no box for " + field));
  box->setFocus();
  box->selectAll();
  QTest::keyClicks(box, text);
  QTest::keyClick(box, Qt::Key_Return);
  QCoreApplication::processEvents(); // the queued commit
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

inline widgets::MainWindow::Services windowServices(const QString &workspace) {
  widgets::MainWindow::Services s;
  auto library = projectCompiler();
  s.parseText = [library](const std::string &text, const std::string &name) {
    iree::DocumentParser parser(library);
    return parser.parseText(text, name);
  };
  s.workspace = workspace.toStdString();
  // The jobs' workbench: the pinned IREE and this build's parse worker (a
  // try, a checked run, a sweep, a tune, a spec's body, a bundle's tools).
  workbench::WorkbenchOptions bench;
  bench.iree = projectIreeOnly();
  bench.workerProgram = binaryDir() / "app" / "tilescope-iree-worker";
  bench.workspace = s.workspace;
  s.bench = std::make_shared<const workbench::Workbench>(std::move(bench));
  s.ireeConstraints = [](const document::Document &document, edit::OpRef op,
                         const std::atomic<bool> *cancel) {
    return service::ireeConstraintVerdict(projectIree(), document,
                                          std::chrono::minutes(2), cancel, op);
  };
  s.ireeDefaults = [](const document::Document &document) {
    service::DocumentWorker worker(binaryDir() / "app" /
                                       "tilescope-iree-worker",
                                   projectIree().compilerLibrary);
    return service::ireeDefaultConfigs(projectIree(), worker, document);
  };
  s.releaseOffer = [](const std::filesystem::path &file)
      -> std::optional<service::ReleaseOffer> {
    service::DocumentWorker worker(binaryDir() / "app" /
                                       "tilescope-iree-worker",
                                   projectIree().compilerLibrary);
    auto text = document::readMlirFile(file);
    if (!text)
      return std::nullopt;
    return service::releaseOffer(worker, *text, file.string(), "3.13");
  };
  s.ireeLayouts = [workspace](const document::Document &document,
                              size_t dispatch,
                              const std::atomic<bool> *cancel) {
    service::DocumentWorker worker(binaryDir() / "app" /
                                       "tilescope-iree-worker",
                                   projectIree().compilerLibrary);
    service::IreeLayoutRequest request;
    request.dispatch = dispatch;
    request.cancel = cancel;
    request.inputCopy = std::filesystem::path(workspace.toStdString()) /
                        "iree-layouts" /
                        (document.path.stem().string() + ".edited.mlir");
    return service::ireeLayouts(projectIree(), worker, document, request);
  };
  return s;
}

// Opens `file` in a 1440x900 window and waits until it is loaded.
inline std::unique_ptr<widgets::MainWindow>
openWindow(const std::filesystem::path &file,
           widgets::MainWindow::Services services) {
  auto library = projectCompiler();
  auto window = std::make_unique<widgets::MainWindow>(
      [library](const std::filesystem::path &path, const std::atomic<bool> *) {
        iree::DocumentParser parser(library);
        return parser.parseFile(path);
      },
      std::move(services));
  window->resize(1440, 900);
  window->show();
  QSignalSpy loaded(window.get(), &widgets::MainWindow::documentLoaded);
  window->openFile(QString::fromStdString(file.string()));
  if (!loaded.wait(30000))
    qFatal("%s did not load", file.string().c_str());
  return window;
}

// Whether a row of the view's model holds `text` in its first column.
inline bool listHas(const QAbstractItemView *list, const QString &text) {
  const QAbstractItemModel *model = list->model();
  for (int i = 0; i < model->rowCount(); ++i)
    if (model->index(i, 0).data().toString().contains(text))
      return true;
  return false;
}

// What a window test has: a workspace of its own, the window's services
// over it, a window opened on a file, and settings (recent files, window
// state) of its own (`useOwnSettings` from its initTestCase).
class WindowTest : public QObject {
protected:
  QTemporaryDir workspace;

  widgets::MainWindow::Services services() {
    return windowServices(workspace.path());
  }
  std::unique_ptr<widgets::MainWindow> open(const std::filesystem::path &file) {
    return openWindow(file, services());
  }
  static void typeAndEnter(widgets::MainWindow &window, const QString &field,
                           const QString &text) {
    test::typeAndEnter(window, field, text);
  }
  static void screenshot(QWidget &window, const QString &name) {
    windowScreenshot(window, name);
  }
  void useOwnSettings(const char *application) {
    QVERIFY(workspace.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TilescopeTest");
    QCoreApplication::setApplicationName(application);
    QSettings().clear();
  }
};

} // namespace tilescope::test
