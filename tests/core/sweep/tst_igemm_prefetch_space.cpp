// IREE disagrees with itself on an IGEMM convolution's prefetching: its
// pipeline constraints pin prefetch_num_stages to 0, while its own IGEMM
// config chooses 2 and compiles it. A sweep in IREE's space keeps the
// config's prefetching (the pin left out, and said so), a candidate checked
// against the stated constraints stays valid with a warning, and a person
// who names the field to vary gets IREE's space as stated (0 only).
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "core/sweep/SweepConstraints.h"
#include "core/sweep/SweepSpace.h"

#include <QTest>

using namespace tilescope;

namespace {

const std::string kField = "translation_info.prefetch_num_stages";

bool setsPrefetch(const sweep::SweepPoint &point) {
  for (const auto &[field, value] : point.settings)
    if (field == kField)
      return true;
  return false;
}

} // namespace

class IgemmPrefetchSpaceTest : public QObject {
  Q_OBJECT

  const edit::OpRef op{0, 0};

  document::Document parsed(const char *target) {
    iree::DocumentParser parser(test::projectCompiler());
    auto document = parser.parseFile(test::examplesDir() / target /
                                     "conv_3x3_f16_dispatch_0.benchmark.mlir");
    if (!document)
      qFatal("%s", document.error().c_str());
    return std::move(*document);
  }

  sweep::IreeSpace listed(const document::Document &document,
                          std::vector<std::string> vary) {
    sweep::IreeSpaceRequest asked;
    asked.document = &document;
    asked.op = op;
    asked.vary = std::move(vary);
    asked.nearest = 16;
    auto space = sweep::ireeSweepSpace(test::projectIree(), asked);
    if (!space)
      qFatal("%s", space.error().c_str());
    return std::move(*space);
  }

private slots:
  void theNeighboursKeepIreesPrefetching_data() {
    QTest::addColumn<QString>("target");
    QTest::newRow("sm_90") << "cuda_sm_90";
    QTest::newRow("gfx942") << "rocm_gfx942";
  }
  void theNeighboursKeepIreesPrefetching() {
    QFETCH(QString, target);
    const document::Document document = parsed(qPrintable(target));
    QVERIFY(document.text.find("prefetch_num_stages = 2") != std::string::npos);
    const sweep::IreeSpace space = listed(document, {});
    QVERIFY(space.currentInSpace); // IREE's own config, pin left out
    QCOMPARE(space.relaxed.size(), size_t(1));
    QVERIFY(space.relaxed.front().find("prefetch_num_stages = 2") !=
            std::string::npos);
    QVERIFY(std::find(space.held.begin(), space.held.end(),
                      "prefetch_num_stages") != space.held.end());
    QVERIFY(!space.points.empty());
    for (const sweep::SweepPoint &point : space.points)
      QVERIFY2(!setsPrefetch(point), point.name.c_str());

    // Checked against the constraints IREE stated: valid, with a warning
    // that names the disagreement.
    sweep::SweepRequest request;
    request.document = &document;
    request.op = op;
    request.points = space.points;
    request.ireeConstraints = true;
    request.stated = space.stated;
    auto planned = sweep::planSweep(request);
    QVERIFY2(planned, planned ? "" : planned.error().c_str());
    auto checked =
        sweep::checkCandidatesWithIree(test::projectIree(), request, *planned);
    QVERIFY2(checked, checked ? "" : checked.error().c_str());
    int warned = 0;
    for (const sweep::SweepCandidate &candidate : *planned) {
      if (candidate.ireeVerdict.rfind("violated", 0) != 0)
        continue;
      QVERIFY2(candidate.valid, candidate.whyNot.c_str());
      for (const config::Problem &p : candidate.problems)
        if (p.rule == "iree-pipeline-constraint") {
          QVERIFY(p.severity == config::Problem::Severity::Warning);
          QCOMPARE(p.field, kField);
          ++warned;
        }
    }
    QVERIFY(warned > 0);
  }

  // Named, the field varies over what IREE states: 0 only.
  void namedItVariesAsIreeStates() {
    const document::Document document = parsed("cuda_sm_90");
    const sweep::IreeSpace space = listed(document, {"prefetch_num_stages"});
    QVERIFY(space.relaxed.empty());
    QVERIFY(!space.currentInSpace);
    QVERIFY(!space.points.empty());
    for (const sweep::SweepPoint &point : space.points) {
      QVERIFY2(setsPrefetch(point), point.name.c_str());
      for (const auto &[field, value] : point.settings)
        if (field == kField)
          QCOMPARE(value, std::string("0"));
    }
  }
};

QTEST_GUILESS_MAIN(IgemmPrefetchSpaceTest)
#include "tst_igemm_prefetch_space.moc"
