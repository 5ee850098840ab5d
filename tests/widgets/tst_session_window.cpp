// The window drives the one session: the edits of
// tests/data/session_edits.json typed into the config editor apply, refuse
// or change nothing as the fixture says (core_session holds the session to
// it), the window's EditSession says which op and field each changed, and
// the text the window ends with is the text a session::Session driven
// directly ends with (python_api does the same for Python and set-config).
#include "WindowTestSupport.h"

#include "core/edit/FieldEdit.h"
#include "core/session/Session.h"
#include "widgets/EditSession.h"
#include "widgets/MainWindow.h"

#include <QSettings>
#include <QSignalSpy>
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
  }
};

QTEST_MAIN(SessionWindowTest)
#include "tst_session_window.moc"
