// The session every front end drives (session::Session), on the edits of
// tests/data/session_edits.json with IREE's printer and parser: each edit
// applied, refused or found unchanged as the fixture says, observers told
// which op and field, undo and redo announced, IREE reading the result back.
// widgets_session and python_api drive the same fixture through the window
// and Python and compare their text with this session's.
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "core/session/Session.h"
#include "widgets/render/OpPicture.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace tilescope;
using json = nlohmann::json;

class SessionTest : public QObject {
  Q_OBJECT

  std::shared_ptr<iree::CompilerLibrary> library;
  std::shared_ptr<iree::AttributeParser> attributes;

  session::SessionServices services() {
    session::SessionServices given;
    auto parser = attributes;
    given.printAttribute = [parser](const std::string &text) {
      return parser->print(text);
    };
    auto compiler = library;
    given.parseText = [compiler](const std::string &text,
                                 const std::string &name) {
      iree::DocumentParser documents(compiler);
      return documents.parseText(text, name);
    };
    return given;
  }

  // The edits every front end drives, and the file they edit.
  static json editsFixture() {
    return json::parse(
        test::readFile(test::sourceDir() / "tests/data/session_edits.json"));
  }
  Result<document::Document> fixtureDocument(const json &fixture) {
    iree::DocumentParser parser(library);
    return parser.parseFile(test::sourceDir() /
                            fixture["file"].get<std::string>());
  }

private slots:
  void initTestCase() {
    library = test::projectCompiler();
    attributes = std::make_shared<iree::AttributeParser>(library);
  }

  void theFixtureAppliesAndRefusesAsItSays() {
    const json fixture = editsFixture();
    auto document = fixtureDocument(fixture);
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());

    session::Session session(services());
    std::vector<session::Change> told;
    const int id = session.observe(
        [&told](const session::Change &c) { told.push_back(c); });
    session.open(*document);
    QCOMPARE(told.size(), size_t(1));
    QVERIFY(told.back().kind == session::Change::Kind::Opened);
    const edit::OpRef op{0, 0};
    QVERIFY(session.select(op).ok());
    QVERIFY(told.back().kind == session::Change::Kind::Selected);
    QVERIFY(!session.select({0, 9}).ok());

    size_t applied = 0;
    for (const json &e : fixture["edits"]) {
      const std::string field = e["field"], outcome = e["outcome"];
      const std::string where = field + "=" + e["value"].get<std::string>();
      const std::string before = session.text();
      const size_t toldBefore = told.size();
      const session::SetOutcome made =
          session.set(op, field, e["value"].get<std::string>());
      QCOMPARE(QString::fromStdString(made.field),
               QString::fromStdString(field));
      if (outcome == "applied") {
        QVERIFY2(made, (where + ": " + made.refusal).c_str());
        QCOMPARE(QString::fromStdString(made.edit->newValue),
                 QString::fromStdString(e["after"].get<std::string>()));
        QVERIFY(made.edit->readByIree);
        QCOMPARE(told.size(), toldBefore + 1);
        QVERIFY(told.back().kind == session::Change::Kind::Edited);
        QVERIFY(told.back().op && told.back().op->op == 0);
        QCOMPARE(QString::fromStdString(told.back().field),
                 QString::fromStdString(made.edit->field.name()));
        ++applied;
        continue;
      }
      QVERIFY2(!made, where.c_str());
      QVERIFY2(!made.refusal.empty(), where.c_str());
      QCOMPARE(made.unchanged, outcome == "unchanged");
      // A refusal changes nothing and tells no one.
      QCOMPARE(session.text(), before);
      QCOMPARE(told.size(), toldBefore);
    }
    QCOMPARE(session.model().edits().size(), applied);
    QVERIFY(session.edited(op));
    auto readBack = session.readBack();
    QVERIFY2(readBack.ok(), readBack.ok() ? "" : readBack.error().c_str());

    const std::string whole = session.text();
    for (int i = 0; i < fixture["undo"].get<int>(); ++i)
      QVERIFY(session.undo());
    QVERIFY(told.back().kind == session::Change::Kind::Undone);
    QCOMPARE(QString::fromStdString(told.back().field), QString("subgroup"));
    for (const json &part : fixture["in_text_after_undo"])
      QVERIFY2(session.text().find(part.get<std::string>()) !=
                   std::string::npos,
               part.get<std::string>().c_str());
    // The rules' verdict and the layout picture of the op as it stands.
    const edit::RuleVerdict verdict = session.verdict(op);
    QCOMPARE(verdict.problems.size(), fixture["problems_after_undo"].size());
    for (size_t i = 0; i < verdict.problems.size(); ++i) {
      const json &expected = fixture["problems_after_undo"][i];
      const config::Problem &p = verdict.problems[i];
      QCOMPARE(QString::fromStdString(p.field),
               QString::fromStdString(expected["field"].get<std::string>()));
      QCOMPARE(QString::fromStdString(p.rule),
               QString::fromStdString(expected["rule"].get<std::string>()));
      QCOMPARE(p.severity == config::Problem::Severity::Error,
               expected["severity"] == "error");
    }
    QCOMPARE(render::opPicture(session.document(), op, {}).note,
             QString::fromStdString(
                 fixture["picture_after_undo"].get<std::string>()));
    QVERIFY(session.redo());
    QVERIFY(told.back().kind == session::Change::Kind::Redone);
    QCOMPARE(session.text(), whole);
    session.forget(id);
    QVERIFY(session.undo());
    QVERIFY(told.back().kind == session::Change::Kind::Redone);
  }

  // The save policy every front end saves by: IREE reads the text back
  // first (required, or where a parser is given), and rule errors on the
  // edited ops hold the write when asked to.
  void theSavePolicyReadsBackAndHolds() {
    const json fixture = editsFixture();
    auto document = fixtureDocument(fixture);
    QVERIFY(document.ok());
    // The fixture's edits leave a rule error (its shared memory).
    auto edited = [&](session::SessionServices given) {
      auto made = std::make_unique<session::Session>(std::move(given));
      made->open(*document);
      for (const json &e : fixture["edits"])
        if (e["outcome"] == "applied")
          made->set({0, 0}, e["field"], e["value"].get<std::string>());
      made->undo();
      return made;
    };
    QTemporaryDir folder;
    const std::filesystem::path file =
        folder.filePath("saved.mlir").toStdString();

    auto session = edited(services());
    QVERIFY(session->verdict({0, 0}).hasErrors());
    session::SavePolicy hold;
    hold.holdOnRuleErrors = true;
    auto held = session->save(file, hold);
    QVERIFY2(held.ok(), held.ok() ? "" : held.error().c_str());
    QVERIFY(!held->written && held->readByIree);
    QVERIFY(!held->heldFor.empty());
    QVERIFY2(held->heldFor.front().rfind("0:0 promote_operands: ", 0) == 0,
             held->heldFor.front().c_str());
    QVERIFY(!std::filesystem::exists(file));

    auto written = session->save(file);
    QVERIFY(written.ok() && written->written && written->readByIree);
    QCOMPARE(test::readFile(file), session->text());
    std::filesystem::remove(file);

    // No parser: a required read-back writes nothing and says why; one
    // asked only where IREE is writes, unread.
    session::SessionServices printerOnly = services();
    printerOnly.parseText = nullptr;
    session = edited(printerOnly);
    auto unread = session->save(file);
    QVERIFY(unread.ok() && !unread->written);
    QVERIFY2(unread->notReadBack.find("no IREE parser") != std::string::npos,
             unread->notReadBack.c_str());
    QVERIFY(!std::filesystem::exists(file));
    session::SavePolicy whereIreeIs;
    whereIreeIs.readBack = session::SavePolicy::ReadBack::WhereIreeIs;
    auto saved = session->save(file, whereIreeIs);
    QVERIFY(saved.ok() && saved->written && !saved->readByIree);
  }
};

QTEST_MAIN(SessionTest)
#include "tst_session.moc"
