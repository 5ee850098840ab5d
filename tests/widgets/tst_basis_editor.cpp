// The basis editor of a lane_basis row, in the window on the gfx942
// reduction: each count or digit changed is typed into the row's box at
// once (the picture is redrawn as a draft), OK makes one undoable edit that
// IREE's printer would write, Cancel puts the box back and makes none; a
// box holding no basis starts the editor from one digit per loop.
#include "TestSupport.h"

#include "core/iree/Document.h"
#include "widgets/BasisEditor.h"
#include "widgets/ConfigEditor.h"
#include "widgets/EditSession.h"
#include "widgets/MainWindow.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

using namespace tilescope;

namespace {

QString screenshotDir() {
  return qEnvironmentVariable("TILESCOPE_SCREENSHOT_DIR");
}

} // namespace

class BasisEditorTest : public QObject {
  Q_OBJECT

  std::unique_ptr<widgets::MainWindow> window;
  widgets::ConfigEditor *editor = nullptr;

private slots:
  void init() {
    auto library = test::projectCompiler();
    widgets::MainWindow::Services services;
    services.keepEditsForRecovery = false;
    window = std::make_unique<widgets::MainWindow>(
        [library](const std::filesystem::path &path,
                  const std::atomic<bool> *) {
          iree::DocumentParser parser(library);
          return parser.parseFile(path);
        },
        services);
    window->resize(1440, 900);
    window->show();
    QSignalSpy loaded(window.get(), &widgets::MainWindow::documentLoaded);
    window->openFile(QString::fromStdString(
        (test::examplesDir() / "rocm_gfx942" /
         "reduction_4x6656x16384_dispatch_0.benchmark.mlir")
            .string()));
    QVERIFY(loaded.wait(30000));
    window->selectOp({0, 0});
    editor = window->findChild<widgets::ConfigEditor *>("configEditor");
    QVERIFY(editor);
  }

  void cleanup() { window.reset(); }

  void countsAndDigitsAreTypedAndOkMakesOneEdit() {
    QVERIFY(editor->findChild<QToolButton *>("basisButton:lane_basis"));
    widgets::BasisEditor *basis = editor->editBasis("lane_basis");
    QVERIFY(basis);
    QCOMPARE(basis->text(), QString("[[1, 64], [0, 1]]"));
    const int steps = window->session()->undoStack()->count();

    // As a person clicks: each change is in the box and the picture at once.
    basis->findChild<QSpinBox *>("basisCount0")->setValue(4);
    basis->setCount(1, 16);
    QCOMPARE(editor->typedValue("lane_basis"), QString("[[4, 16], [0, 1]]"));
    auto *note = window->findChild<QLabel *>("layoutNote");
    QVERIFY2(note->text().startsWith("Draft (not applied)"),
             qPrintable(note->text()));
    basis->findChild<QComboBox *>("basisDigitOf0")->setCurrentIndex(1);
    basis->setDigitOf(1, 0);
    QCOMPARE(editor->typedValue("lane_basis"), QString("[[4, 16], [1, 0]]"));
    const QString result = basis->findChild<QLabel *>("basisResult")->text();
    QVERIFY2(result.contains("64 id(s), as many as there are"),
             qPrintable(result));
    QCOMPARE(window->session()->undoStack()->count(), steps);
    if (const QString dir = screenshotDir(); !dir.isEmpty()) {
      QCoreApplication::processEvents();
      window->grab().save(dir + "/basis_editor_window.png");
      basis->grab().save(dir + "/basis_editor.png");
    }

    basis->accept();
    QCoreApplication::processEvents(); // the queued commit
    QCOMPARE(window->session()->undoStack()->count(), steps + 1);
    QVERIFY(window->document()->text.find(
                "lane_basis = [[4, 16], [1, 0]]") != std::string::npos);
    QVERIFY(window->session()->undoStack()->undoText().contains("lane_basis"));
  }

  void cancelPutsTheBoxBack() {
    widgets::BasisEditor *basis = editor->editBasis("lane_basis");
    const int steps = window->session()->undoStack()->count();
    basis->setCount(0, 2);
    basis->addDigit();
    QCOMPARE(editor->typedValue("lane_basis"), QString("[[2, 64, 1], [0, 1]]"));
    const QString result = basis->findChild<QLabel *>("basisResult")->text();
    QVERIFY2(result.contains("128 id(s), of 64 there are"), qPrintable(result));
    basis->reject();
    QCOMPARE(editor->typedValue("lane_basis"), QString("[[1, 64], [0, 1]]"));
    QCOMPARE(window->session()->undoStack()->count(), steps);
  }

  // A digit no loop walks is named; a mapping naming no digit is kept as
  // typed (the rules name it), not silently changed.
  void saysWhatTheBasisMeans() {
    editor->typeValue("lane_basis", "[[4, 16, 2], [0, 5]]");
    widgets::BasisEditor *basis = editor->editBasis("lane_basis");
    QCOMPARE(basis->text(), QString("[[4, 16, 2], [0, 5]]"));
    QCOMPARE(basis->findChild<QComboBox *>("basisDigitOf1")->currentText(),
             QString("digit 5 (no such digit)"));
    const QString result = basis->findChild<QLabel *>("basisResult")->text();
    QVERIFY2(result.contains("digit 1, 2 walks no loop"), qPrintable(result));
    basis->reject();
  }

  void aBoxWithNoBasisStartsFromOneDigitPerLoop() {
    editor->typeValue("lane_basis", "[[4");
    widgets::BasisEditor *basis = editor->editBasis("lane_basis");
    QCOMPARE(basis->text(), QString("[[1, 1], [0, 1]]"));
    QVERIFY(basis->findChildren<QLabel *>().front()->text().contains(
        "holds no basis"));
    basis->reject();
  }
};

QTEST_MAIN(BasisEditorTest)
#include "tst_basis_editor.moc"
