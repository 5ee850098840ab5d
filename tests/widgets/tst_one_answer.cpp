// One answer: the window and the CLI say the same of the same edit. Seeded
// random edits of the sm_90 reduction and the gfx942 matmul
// (RandomEdits.h), each made twice: in the window, through its edit
// session (what Enter in a field applies), and with the built
// tilescope-cli (`set-config --force`). Then
// - the window's Problems panel lists exactly what `check` prints (the
//   rules' verdict, edit::ruleVerdict; IREE's constraints are left out of
//   both), and `sweep --plan` calls the edit valid exactly when neither
//   finds an error;
// - every view of the op in the window's Layout tab, written to SVG, is
//   byte for byte what `render FILE --op --view` writes, and a view that
//   does not apply is empty in both;
// - `explain FILE --op --json` says what the window's views are drawn from
//   (edit::opLayoutInputs): the forall's tiles and workers, or the
//   workgroup tile and each operand's layout. The same holds for every root
//   op of every GPU example (a softmax's ops fused into its root op run on
//   the root's workgroup tile).
#include "RandomEdits.h"
#include "WindowTestSupport.h"
#include "e2e/CliRunner.h"

#include "core/edit/OpLayoutInputs.h"
#include "core/service/DocumentWorker.h"
#include "widgets/editor/EditSession.h"
#include "widgets/render/OpPicture.h"
#include "widgets/render/SceneExport.h"
#include "widgets/views/SceneView.h"
#include "widgets/window/MainWindow.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListView>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace tilescope;
using test::cli;
using test::Edit;
using test::failure;

namespace {

const QString kReduction =
    TILESCOPE_SOURCE_DIR "/examples/cuda_sm_90/"
                         "reduction_4x6656x16384_dispatch_0.benchmark.mlir";
const QString kMatmul = TILESCOPE_SOURCE_DIR
    "/examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";

// A problem of `check --json` as the Problems panel words it.
QString panelLine(const QJsonObject &p) {
  QString line = p["field"].toString() + ": " + p["message"].toString();
  if (p["severity"].toString() == "error")
    line +=
        "  [" + p["iree"].toString() + "; rule " + p["rule"].toString() + "]";
  return line;
}

std::vector<int64_t> integers(const QJsonValue &value) {
  std::vector<int64_t> out;
  for (const QJsonValue &entry : value.toArray())
    out.push_back(entry.toInteger());
  return out;
}

// Each operand's layout as `explain --json` lists it.
std::vector<std::string> explainedOperandLayouts(const QJsonObject &out) {
  std::vector<std::string> texts;
  const QJsonValue operands = out["operand_layouts"];
  // Attention: each of its two contractions' operands (Q, K, S; P, V, O).
  for (const QJsonValue &contraction : out["contractions"].toArray())
    for (const QJsonValue &entry : contraction.toObject()["operands"].toArray())
      texts.push_back(entry.toObject()["layout"].toString().toStdString());
  if (operands.isObject()) // a contraction: lhs, rhs, acc
    for (const char *name : {"lhs", "rhs", "acc"})
      texts.push_back(operands.toObject()[name].toString().toStdString());
  else
    for (const QJsonValue &entry : operands.toArray())
      texts.push_back(entry.toObject()["layout"].toString().toStdString());
  return texts;
}

QByteArray readAll(const QString &path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class OneAnswerTest : public QObject {
  Q_OBJECT

  QTemporaryDir scratch;
  int made = 0;

  // `explain FILE --op D:O --json` against what the window's layout views
  // are drawn from for the same op of `document` (FILE's parse); `compared`
  // says whether the op has layouts to compare.
  void explainAgrees(const QString &file, const document::Document &document,
                     size_t d, size_t o, const QString &described,
                     bool *compared = nullptr) {
    const document::Dispatch &dispatch = document.dispatches[d];
    auto inputs = edit::opLayoutInputs(dispatch, dispatch.rootOps[o]);
    if (!inputs)
      return; // no GPU layout for the op: the window draws none
    auto layouts = edit::opLayoutsOf(*inputs);
    if (!layouts)
      return;
    if (compared)
      *compared = true;
    const QString op = QString("%1:%2").arg(d).arg(o);
    const test::CliRun explain = cli({"explain", file, "--op", op, "--json"});
    const QString where = described + file + " --op " + op + "\n";
    QVERIFY2(explain.exitCode == 0, qPrintable(where + failure(explain)));
    const QJsonObject out =
        QJsonDocument::fromJson(explain.out.toUtf8()).object();
    if (layouts->threads || layouts->subgroups) {
      const layout::ForallDistribution &f =
          layouts->threads ? *layouts->threads : *layouts->subgroups;
      QVERIFY2(integers(out["tiles"]) == f.tiles &&
                   integers(out["bounds"]) == f.bounds &&
                   out["workers"].toInteger() == f.workers,
               qPrintable(where + explain.out));
      return;
    }
    if (layouts->derived)
      QVERIFY2(integers(out["workgroup_tile"]) ==
                   layouts->derived->workgroupTile,
               qPrintable(where + explain.out));
    const std::vector<std::string> expected =
        edit::operandLayoutTexts(*layouts, inputs->space);
    if (!expected.empty())
      QVERIFY2(explainedOperandLayouts(out) == expected,
               qPrintable(where + explain.out));
  }

  void agree(const QString &file, const Edit &edit) {
    widgets::MainWindow::Services services =
        test::windowServices(scratch.path());
    // `check --no-iree-constraints`: the rules' verdict alone.
    services.ireeConstraints = {};
    auto window = test::openWindow(file.toStdString(), std::move(services));
    const edit::OpRef op{0, 0};

    QString described;
    QStringList setArguments = {"set-config", file, "--op", "0:0", "--force"};
    QStringList planArguments = {"sweep", file,     "--op",
                                 "0:0",   "--plan", "--json"};
    bool windowApplied = true;
    for (const auto &[field, value] : edit) {
      described += field + "=" + value + " ";
      setArguments << "--set" << field + "=" + value;
      planArguments << "--vary" << field + "=" + value;
      // A value the field already holds changes nothing, in both.
      const auto prepared = window->session()->model().prepare(
          op, field.toStdString(), value.toStdString());
      if (prepared && prepared->changesNothing())
        continue;
      windowApplied = windowApplied && window->session()
                                           ->setField(op, field.toStdString(),
                                                      value.toStdString())
                                           .ok();
    }
    QCoreApplication::processEvents();
    const QString edited =
        scratch.filePath(QString("edited-%1.mlir").arg(made++));
    setArguments << "-o" << edited;
    const test::CliRun set = cli(setArguments);
    // A value the edit model refuses is refused by both.
    const bool cliApplied = set.exitCode == 0 || set.exitCode == 1;
    QVERIFY2(cliApplied == windowApplied, qPrintable(described + failure(set)));
    if (!cliApplied)
      return;
    QCOMPARE(window->session()->model().text(), readAll(edited).toStdString());

    // The rules' verdict.
    const test::CliRun check = cli(
        {"check", edited, "--op", "0:0", "--no-iree-constraints", "--json"});
    QVERIFY2(check.exitCode == 0 || check.exitCode == 1,
             qPrintable(described + failure(check)));
    QStringList expected;
    bool errors = false;
    for (const QJsonValue &p : QJsonDocument::fromJson(check.out.toUtf8())
                                   .object()["problems"]
                                   .toArray()) {
      expected << panelLine(p.toObject());
      errors = errors || p.toObject()["severity"].toString() == "error";
    }
    auto *problems = window->findChild<QListView *>("problemList");
    QVERIFY(problems);
    QStringList shown;
    for (int i = 0; i < problems->model()->rowCount(); ++i)
      if (const QString text = problems->model()->index(i, 0).data().toString();
          text != "No problems found" && !text.startsWith("IREE"))
        shown << text;
    QVERIFY2(shown == expected,
             qPrintable(described + "\nwindow:\n" + shown.join('\n') +
                        "\ncheck:\n" + expected.join('\n')));
    const test::CliRun plan = cli(planArguments);
    QVERIFY2(plan.exitCode == 0, qPrintable(described + failure(plan)));
    const QJsonArray candidates = QJsonDocument::fromJson(plan.out.toUtf8())
                                      .object()["candidates"]
                                      .toArray();
    QVERIFY2(candidates.size() == 1, qPrintable(described + plan.out));
    QCOMPARE(candidates.first().toObject()["valid"].toBool(), !errors);

    // The words for the layouts the views draw.
    explainAgrees(edited, *window->document(), 0, 0, described);
    if (QTest::currentTestFailed())
      return;

    // Every view, as the window draws it and as the CLI does.
    auto *view = window->findChild<widgets::SceneView *>("sceneView");
    QVERIFY(view);
    for (render::OpViewKind kind : render::allOpViews()) {
      const QString name = render::opViewName(kind);
      window->setView(kind);
      QCoreApplication::processEvents();
      const QString cliSvg = scratch.filePath(QString("cli-%1.svg").arg(made));
      const QString windowSvg =
          scratch.filePath(QString("window-%1.svg").arg(made));
      QFile::remove(cliSvg);
      const test::CliRun render =
          cli({"render", edited, "--op", "0:0", "--view", name, "-o", cliSvg});
      const bool drawn = !view->scene().panels.empty();
      QVERIFY2((render.exitCode == 0) == drawn,
               qPrintable(described + name + "\n" + failure(render)));
      if (!drawn)
        continue;
      QString error;
      QVERIFY2(render::writeScene(view->scene(), windowSvg,
                                  render::Theme::light(), 24, &error),
               qPrintable(error));
      QVERIFY2(readAll(windowSvg) == readAll(cliSvg),
               qPrintable(described + name + ": the window's picture (" +
                          windowSvg + ") is not the CLI's (" + cliSvg + ")"));
    }
  }

private slots:
  void initTestCase() {
    QVERIFY(scratch.isValid());
    scratch.setAutoRemove(qEnvironmentVariableIsEmpty("TILESCOPE_KEEP"));
    QStandardPaths::setTestModeEnabled(true);
  }

  void randomEditsGetOneAnswer_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("seed");
    for (int seed = 1; seed <= 8; ++seed) {
      QTest::newRow(qPrintable(QString("reduction %1").arg(seed)))
          << kReduction << seed;
      QTest::newRow(qPrintable(QString("matmul %1").arg(seed)))
          << kMatmul << seed;
    }
  }

  void everyExampleOpIsExplainedAsTheWindowDrawsIt() {
    service::DocumentWorker worker(test::binaryDir() / "app" /
                                       "tilescope-iree-worker",
                                   test::projectIree().compilerLibrary);
    int checked = 0;
    for (const char *folder : {"rocm_gfx942", "rocm_gfx950", "cuda_sm_90"}) {
      const QDir dir(
          QString::fromStdString((test::examplesDir() / folder).string()));
      for (const QString &name : dir.entryList({"*.mlir"}, QDir::Files)) {
        const QString file = dir.filePath(name);
        auto document = worker.parseFile(file.toStdString());
        QVERIFY2(document, qPrintable(file));
        for (size_t d = 0; d < document->dispatches.size(); ++d)
          for (size_t o = 0; o < document->dispatches[d].rootOps.size(); ++o) {
            bool compared = false;
            explainAgrees(file, *document, d, o, {}, &compared);
            if (QTest::currentTestFailed())
              return;
            checked += compared ? 1 : 0;
          }
      }
    }
    QVERIFY2(checked >= 10, qPrintable(QString::number(checked)));
  }

  void randomEditsGetOneAnswer() {
    QFETCH(QString, file);
    QFETCH(int, seed);
    QRandomGenerator random(static_cast<quint32>(seed) * 104729u);
    agree(file, file == kReduction ? test::reductionEdit(random)
                                   : test::matmulEdit(random));
  }
};

QTEST_MAIN(OneAnswerTest)
#include "tst_one_answer.moc"
