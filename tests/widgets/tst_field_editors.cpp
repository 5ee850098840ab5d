// The field editors of the config editor, in the window: the basis editor
// of a lane_basis row on the gfx942 reduction (each count or digit changed
// is typed into the row's box at once and the picture redrawn as a draft,
// OK makes one undoable edit that IREE's printer would write, Cancel puts
// the box back and makes none, a box holding no basis starts from one
// digit per loop), and the tile editor on the gfx942 TileAndFuse matmul
// (each loop's number read as IREE's pipeline reads it: intrinsic K tiles
// for reduction).
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "widgets/editor/BasisEditor.h"
#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/EditSession.h"
#include "widgets/editor/TileEditor.h"
#include "widgets/window/MainWindow.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
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

class FieldEditorsTest : public QObject {
  Q_OBJECT

  std::unique_ptr<widgets::MainWindow> window;
  widgets::ConfigEditor *editor = nullptr;

  // Opens a gfx942 example in the window with its first root op selected.
  void openExample(const char *name) {
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
        (test::examplesDir() / "rocm_gfx942" / name).string()));
    QVERIFY(loaded.wait(30000));
    window->selectOp({0, 0});
    editor = window->findChild<widgets::ConfigEditor *>("configEditor");
    QVERIFY(editor);
  }

private slots:
  void init() {
    // The basis tests' op; the tile tests open their own.
    openExample("reduction_4x6656x16384_dispatch_0.benchmark.mlir");
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
    const QString result =
        basis->findChild<QLabel *>("basisEditorResult")->text();
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
    QVERIFY(window->document()->text.find("lane_basis = [[4, 16], [1, 0]]") !=
            std::string::npos);
    QVERIFY(window->session()->undoStack()->undoText().contains("lane_basis"));
  }

  void cancelPutsTheBoxBack() {
    widgets::BasisEditor *basis = editor->editBasis("lane_basis");
    const int steps = window->session()->undoStack()->count();
    basis->setCount(0, 2);
    basis->addDigit();
    QCOMPARE(editor->typedValue("lane_basis"), QString("[[2, 64, 1], [0, 1]]"));
    const QString result =
        basis->findChild<QLabel *>("basisEditorResult")->text();
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
    const QString result =
        basis->findChild<QLabel *>("basisEditorResult")->text();
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

  // The tile editor on the TileAndFuse matmul: reduction counts intrinsic
  // K tiles, each number is typed into the box with its meaning, and the
  // tile rows' tooltips read the same way.
  void tilesSayWhatTheirNumbersMean() {
    openExample("matmul_f16_1024_dispatch_0.benchmark.mlir");
    QVERIFY(editor->findChild<QToolButton *>("tileButton:reduction"));
    widgets::TileEditor *tiles = editor->editTiles("reduction");
    QVERIFY(tiles);
    QCOMPARE(tiles->text(), QString("[0, 0, 8]"));
    QCOMPARE(tiles->meanings().value(2),
             QString("8 x MFMA_F32_16x16x16_F16 K (16) = 128 elements per "
                     "step -> 8 steps"));
    const int steps = window->session()->undoStack()->count();
    tiles->findChild<QSpinBox *>("tile2")->setValue(4);
    QCOMPARE(editor->typedValue("reduction"), QString("[0, 0, 4]"));
    QVERIFY(tiles->meanings().value(2).endsWith("= 64 elements per step -> "
                                                "16 steps"));
    QVERIFY(tiles->findChild<QLabel *>("tileEditorResult")
                ->text()
                .contains("16 reduction steps"));
    if (const QString dir = screenshotDir(); !dir.isEmpty())
      tiles->grab().save(dir + "/tile_editor.png");
    tiles->accept();
    QCoreApplication::processEvents(); // the queued commit
    QCOMPARE(window->session()->undoStack()->count(), steps + 1);
    QVERIFY(window->document()->text.find("reduction = [0, 0, 4]") !=
            std::string::npos);

    // The workgroup row's tooltip: each loop's workgroups.
    const QString tip =
        window->findChild<QLineEdit *>("field:workgroup")->toolTip();
    QVERIFY2(tip.contains("d0 (1024): 64 elements per workgroup -> 16 "
                          "workgroups"),
             qPrintable(tip));
    // Cancel puts the box back.
    tiles = editor->editTiles("workgroup");
    tiles->setValue(0, 128);
    QCOMPARE(editor->typedValue("workgroup"), QString("[128, 128, 0]"));
    tiles->reject();
    QCOMPARE(editor->typedValue("workgroup"), QString("[64, 128, 0]"));
  }
};

QTEST_MAIN(FieldEditorsTest)
#include "tst_field_editors.moc"
