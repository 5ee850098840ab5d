// A sweep that takes its candidates from IREE's constraints and checks them
// against the same constraints asks iree-opt once: the check runs what the
// space listing had IREE state, for that text and op only. Shown with an
// iree-opt that cannot run: with the stated constraints every candidate is
// still checked (by Tilescope, on IREE's program); without them, or for
// another text, none is.
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "core/sweep/SweepConstraints.h"
#include "core/sweep/SweepSpace.h"

#include <QTest>

using namespace tilescope;

class StatedConstraintsTest : public QObject {
  Q_OBJECT

  std::optional<document::Document> document;
  std::optional<sweep::IreeSpace> space;
  const edit::OpRef op{0, 0};

  // The candidates of `space`, checked with an iree-opt that cannot run.
  std::vector<sweep::SweepCandidate> checkedWithoutIreeOpt(
      const document::Document &asked,
      std::shared_ptr<const service::StatedConstraints> stated) {
    sweep::SweepRequest request;
    request.document = &asked;
    request.op = op;
    request.points = space->points;
    request.ireeConstraints = true;
    request.stated = std::move(stated);
    auto planned = sweep::planSweep(request);
    if (!planned)
      qFatal("%s", planned.error().c_str());
    tools::IreeInstallation broken = test::projectIree();
    broken.tools[tools::kIreeOpt] = "/bin/false";
    auto checked = sweep::checkCandidatesWithIree(broken, request, *planned);
    if (!checked)
      qFatal("%s", checked.error().c_str());
    return *planned;
  }

private slots:
  void initTestCase() {
    iree::DocumentParser parser(test::projectCompiler());
    auto parsed = parser.parseFile(test::examplesDir() / "rocm_gfx942" /
                                   "matmul_f16_1024_dispatch_0.benchmark.mlir");
    QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
    document = std::move(*parsed);
    sweep::IreeSpaceRequest asked;
    asked.document = &*document;
    asked.op = op;
    asked.vary = {"reduction"};
    asked.nearest = 4;
    auto listed = sweep::ireeSweepSpace(test::projectIree(), asked);
    QVERIFY2(listed, listed ? "" : listed.error().c_str());
    space = std::move(*listed);
    QVERIFY(!space->points.empty());
    QVERIFY(space->stated && space->stated->statedFor(*document, op));
  }

  void theCheckRunsWhatTheListingHadIreeState() {
    const auto candidates = checkedWithoutIreeOpt(*document, space->stated);
    int checked = 0;
    for (const sweep::SweepCandidate &candidate : candidates) {
      if (!candidate.valid)
        continue;
      QCOMPARE(candidate.ireeVerdictBy, std::string("tilescope"));
      QCOMPARE(candidate.ireeVerdict, std::string("holds"));
      ++checked;
    }
    QVERIFY(checked > 0);
  }

  void withoutThemIreeOptIsAsked() {
    for (const sweep::SweepCandidate &candidate :
         checkedWithoutIreeOpt(*document, nullptr))
      if (candidate.valid)
        QVERIFY(candidate.ireeVerdict != "holds");
  }

  // Constraints stated for another text are not this document's.
  void anotherTextIsAskedAgain() {
    document::Document edited = *document;
    edited.text += "\n// edited\n";
    QVERIFY(!space->stated->statedFor(edited, op));
    QVERIFY(!space->stated->statedFor(*document, {0, 1}));
    for (const sweep::SweepCandidate &candidate :
         checkedWithoutIreeOpt(edited, space->stated))
      if (candidate.valid)
        QVERIFY(candidate.ireeVerdictBy != "tilescope");
  }
};

QTEST_GUILESS_MAIN(StatedConstraintsTest)
#include "tst_stated_constraints.moc"
