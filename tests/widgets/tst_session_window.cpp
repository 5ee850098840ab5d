// The window drives the one session: the edits of
// tests/data/session_edits.json typed into the config editor apply, refuse
// or change nothing as the fixture says (core_session holds the session to
// it), the window's EditSession says which op and field each changed, and
// the text the window ends with is the text a session::Session driven
// directly ends with (python_api does the same for Python and set-config).
#include "WindowTestSupport.h"

#include "core/edit/FieldEdit.h"
#include "core/session/Session.h"
#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/ConfigFieldModel.h"
#include "widgets/editor/EditSession.h"
#include "widgets/editor/ProblemList.h"
#include "widgets/editor/ProblemModel.h"
#include "widgets/jobs/SweepPanel.h"
#include "widgets/jobs/TunePanel.h"
#include "widgets/window/MainWindow.h"

#include <QFont>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <nlohmann/json.hpp>

using namespace tilescope;
using json = nlohmann::json;

class SessionWindowTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;

private slots:
  void initTestCase() {
    QVERIFY(workspace.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TilescopeTest");
    QCoreApplication::setApplicationName("SessionWindowTest");
    QSettings().clear();
  }

  void theWindowEditsAsTheSessionDoes() {
    const json fixture = json::parse(
        test::readFile(test::sourceDir() / "tests/data/session_edits.json"));
    const std::filesystem::path file =
        test::sourceDir() / fixture["file"].get<std::string>();
    auto window =
        test::openWindow(file, test::windowServices(workspace.path()));
    widgets::EditSession *edits = window->session();
    QSignalSpy fieldChanged(edits, &widgets::EditSession::fieldChanged);

    // The same edits through a session driven directly, IREE in process.
    auto library = test::projectCompiler();
    auto attributes = std::make_shared<iree::AttributeParser>(library);
    session::SessionServices services;
    services.printAttribute = [attributes](const std::string &text) {
      return attributes->print(text);
    };
    session::Session direct(services);
    iree::DocumentParser parser(library);
    auto document = parser.parseFile(file);
    QVERIFY(document.ok());
    direct.open(*document);

    const edit::OpRef op{0, 0};
    for (const json &e : fixture["edits"]) {
      const std::string field = e["field"], value = e["value"],
                        outcome = e["outcome"];
      const std::string before = edits->model().text();
      const int signalled = fieldChanged.count();
      const session::SetOutcome expected = direct.set(op, field, value);
      QCOMPARE(bool(expected), outcome == "applied");
      test::typeAndEnter(
          *window,
          QString::fromStdString(edit::parseField(field).value().name()),
          QString::fromStdString(value));
      const std::string where = field + "=" + value;
      if (outcome == "applied") {
        QVERIFY2(edits->model().text() != before, where.c_str());
        QCOMPARE(fieldChanged.count(), signalled + 1);
        QCOMPARE(fieldChanged.last().at(1).toString(),
                 QString::fromStdString(expected.edit->field.name()));
      } else {
        // Refused or already so: the text is as it was, and no field is
        // said to have changed.
        QVERIFY2(edits->model().text() == before, where.c_str());
        QCOMPARE(fieldChanged.count(), signalled);
      }
      QCOMPARE(edits->model().text(), direct.text());
    }
    QCOMPARE(edits->undoStack()->count(),
             static_cast<int>(direct.model().edits().size()));
    // Edit > Undo is the session's undo.
    for (int i = 0; i < fixture["undo"].get<int>(); ++i) {
      edits->undoStack()->undo();
      QVERIFY(direct.undo());
    }
    QCOMPARE(edits->model().text(), direct.text());
    QCOMPARE(
        fieldChanged.last().at(1).toString(),
        QString::fromStdString(direct.model().redoList().back().field.name()));
    for (const json &part : fixture["in_text_after_undo"])
      QVERIFY(edits->model().text().find(part.get<std::string>()) !=
              std::string::npos);
    // The Problems panel lists the rules' problems the session's verdict
    // has (each leading to its field, with its severity's icon), and the
    // Layout tab draws the picture the session's document gives.
    auto *problems = window->findChild<widgets::ProblemList *>();
    QVERIFY(problems);
    // The rules' rows come first, in the verdict's order (an error names
    // its rule; IREE's rows follow).
    const std::vector<widgets::ProblemModel::Row> &rows =
        problems->problems()->rows();
    QVERIFY(rows.size() >= fixture["problems_after_undo"].size());
    for (size_t i = 0; i < fixture["problems_after_undo"].size(); ++i) {
      const json &expected = fixture["problems_after_undo"][i];
      const bool error = expected["severity"] == "error";
      QCOMPARE(rows[i].field,
               QString::fromStdString(expected["field"].get<std::string>()));
      QCOMPARE(rows[i].icon, error ? QStyle::SP_MessageBoxCritical
                                   : QStyle::SP_MessageBoxWarning);
      if (error)
        QVERIFY2(rows[i].text.contains(QString::fromStdString(
                     "rule " + expected["rule"].get<std::string>())),
                 qPrintable(rows[i].text));
    }
    QCOMPARE(window->findChild<QLabel *>("layoutNote")->text(),
             QString::fromStdString(
                 fixture["picture_after_undo"].get<std::string>()));
  }

  // The config editor is a view of the session (ConfigFieldModel): a commit
  // announces the rows it changed, never a reset, so every box stays the
  // widget it was and what is typed, not yet applied, in another box
  // stays; undo puts the value back in the same box, and a field removed
  // (a row fewer) is the one change that rebuilds the rows.
  // The fixture's jobs from the window's panels: the Sweep panel plans the
  // candidates core_workbench and python_api get (the panel ranks them, so
  // as a set, with as many valid), the Tune panel's compile-only tune
  // picks the same winners with the same outcomes.
  void theWindowsJobsAnswerAsTheWorkbenchDoes() {
    const json fixture = json::parse(
        test::readFile(test::sourceDir() / "tests/data/session_edits.json"));
    QTemporaryDir jobsWorkspace;
    auto window =
        test::openWindow(test::sourceDir() / fixture["file"].get<std::string>(),
                         test::windowServices(jobsWorkspace.path()));
    auto *sweep = window->findChild<widgets::SweepPanel *>("sweepPanel");
    QVERIFY(sweep);
    for (const char *kind : {"sweep_axes", "sweep_iree_space"}) {
      const json &expected = fixture[kind];
      QStringList vary, names;
      for (const json &axis : expected.value("vary", json::array()))
        vary << QString::fromStdString(axis.get<std::string>());
      int valid = 0;
      for (const json &c : expected["candidates"]) {
        names << QString::fromStdString(c[0].get<std::string>());
        valid += c[1].get<bool>() ? 1 : 0;
      }
      QSignalSpy planned(sweep, &widgets::SweepPanel::planned);
      sweep->setAxes(vary);
      sweep->setFromIreeSpace(expected.contains("nearest"),
                              expected.value("nearest", 32));
      QTRY_VERIFY_WITH_TIMEOUT(!planned.isEmpty() && !sweep->planning(), 60000);
      QStringList ranked = sweep->ranking();
      ranked.sort();
      names.sort();
      QCOMPARE(ranked, names);
      QCOMPARE(sweep->validCount(), valid);
    }

    const json &tune = fixture["tune"];
    auto *panel = window->findChild<widgets::TunePanel *>("tunePanel");
    QVERIFY(panel);
    panel->setProgram(QString::fromStdString(
        (test::sourceDir() / tune["program"].get<std::string>()).string()));
    panel->setTarget(QString::fromStdString(tune["target"]));
    panel->setCandidates(tune["candidates"].get<int>());
    panel->setBudgetMinutes(tune["budget_minutes"].get<int>());
    QSignalSpy finished(panel, &widgets::TunePanel::finished);
    panel->start();
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    const QStandardItemModel *rows = panel->rows();
    QCOMPARE(size_t(rows->rowCount()), tune["dispatches"].size());
    for (int row = 0; row < rows->rowCount(); ++row) {
      const json &expected = tune["dispatches"][size_t(row)];
      QCOMPARE(rows->item(row, 6)->text(),
               QString::fromStdString(expected["outcome"].get<std::string>()));
      QCOMPARE(rows->item(row, 0)->toolTip().section('\n', 0, 0),
               "winner: " + QString::fromStdString(
                                expected["winner"].get<std::string>()));
    }
  }

  void theConfigEditorFollowsTheSessionRowByRow() {
    auto window = test::openWindow(
        test::examplesDir() /
            "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir",
        test::windowServices(workspace.path()));
    auto *editor = window->findChild<widgets::ConfigEditor *>("configEditor");
    const widgets::ConfigFieldModel *model = editor->fieldModel();
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(model, &QAbstractItemModel::dataChanged);
    auto *workgroup = window->findChild<QLineEdit *>("field:workgroup");
    auto *reduction = window->findChild<QLineEdit *>("field:reduction");
    auto *size =
        window->findChild<QLineEdit *>("field:translation_info.workgroup_size");
    QVERIFY(workgroup && reduction && size);
    const QString sizeBefore = size->text();

    editor->typeValue("reduction", "[0, 0, 12");
    test::typeAndEnter(*window, "workgroup", "[128, 64, 0]");
    QCOMPARE(window->session()->undoStack()->count(), 1);
    QCOMPARE(resets.count(), 0);
    QVERIFY(changes.count() >= 1);
    const int workgroupRow = model->rowOf("workgroup");
    const int sizeRow = model->rowOf("translation_info.workgroup_size");
    bool announced = false;
    for (const QList<QVariant> &change : changes) {
      const int top = change.at(0).toModelIndex().row();
      const int bottom = change.at(1).toModelIndex().row();
      announced = announced || (top <= workgroupRow && workgroupRow <= bottom);
      QVERIFY2(!(top <= sizeRow && sizeRow <= bottom),
               "an unchanged translation_info row was announced");
    }
    QVERIFY(announced);
    QCOMPARE(window->findChild<QLineEdit *>("field:workgroup"), workgroup);
    QCOMPARE(window->findChild<QLineEdit *>("field:reduction"), reduction);
    QCOMPARE(workgroup->text(), QString("[128, 64, 0]"));
    QCOMPARE(reduction->text(), QString("[0, 0, 12"));
    QCOMPARE(size->text(), sizeBefore);
    QVERIFY(model->index(workgroupRow, widgets::ConfigFieldModel::kField)
                .data(Qt::FontRole)
                .value<QFont>()
                .bold());

    // Undo: the same box shows the value as opened; the same text may be
    // typed and applied again.
    window->session()->undoStack()->undo();
    QCOMPARE(window->findChild<QLineEdit *>("field:workgroup"), workgroup);
    QVERIFY(workgroup->text() != QString("[128, 64, 0]"));
    QVERIFY(!model->index(workgroupRow, widgets::ConfigFieldModel::kField)
                 .data(Qt::FontRole)
                 .value<QFont>()
                 .bold());
    test::typeAndEnter(*window, "workgroup", "[128, 64, 0]");
    QCOMPARE(window->session()->undoStack()->count(), 1);
    QCOMPARE(workgroup->text(), QString("[128, 64, 0]"));
    QCOMPARE(resets.count(), 0);

    // A box emptied removes its field (it had been ignored: no value
    // submitted read as an empty one). The rows are rebuilt (the field
    // stays as a row to re-add), and what was typed in reduction's box
    // survives that too.
    auto *subgroup = window->findChild<QLineEdit *>("field:subgroup");
    subgroup->setFocus();
    subgroup->selectAll();
    QTest::keyClick(subgroup, Qt::Key_Delete);
    QTest::keyClick(subgroup, Qt::Key_Return);
    QCoreApplication::processEvents(); // the queued commit
    QCOMPARE(window->session()->undoStack()->count(), 2);
    QVERIFY(resets.count() >= 1);
    QVERIFY(model->fields().contains("subgroup"));
    QCOMPARE(window->findChild<QLineEdit *>("field:subgroup")->text(),
             QString());
    QCOMPARE(window->findChild<QLineEdit *>("field:reduction")->text(),
             QString("[0, 0, 12"));
  }
};

QTEST_MAIN(SessionWindowTest)
#include "tst_session_window.moc"
