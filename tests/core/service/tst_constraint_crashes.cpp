// The ops IREE's constraint generator crashes on: found by halves whatever
// set of ops crashes (random sets, seeded: each found once, nothing else,
// and in fewer probes than asking each op alone where few crash), and
// remembered by key, the oldest forgotten past the bound; with the real
// IREE, a batch matmul its constraint generator crashes on is found once and
// known at the next check of the same dispatch, and asked again once its
// dispatch changed.
#include "TestSupport.h"

#include "core/edit/AttributeLocator.h"
#include "core/iree/DocumentParser.h"
#include "core/service/ConstraintCrashes.h"
#include "core/service/IreeConstraints.h"

#include <random>
#include <set>

using namespace tilescope;

class ConstraintCrashesTest : public QObject {
  Q_OBJECT

private slots:
  void everyCrashingOpIsFoundAlone() {
    std::mt19937 random(20261206);
    for (int round = 0; round < 300; ++round) {
      const size_t count = 1 + random() % 40;
      std::vector<size_t> asked;
      for (size_t i = 0; i < count; ++i)
        asked.push_back(3 * i + 1); // the caller's indices, not 0..n
      std::set<size_t> crashing;
      const size_t crashes = random() % 4 == 0 ? 0 : 1 + random() % 3;
      for (size_t i = 0; i < crashes; ++i)
        crashing.insert(asked[random() % count]);
      size_t probes = 0;
      auto probe = [&](const std::vector<size_t> &group)
          -> service::CrashProbe::result_type {
        ++probes;
        for (size_t index : group)
          if (crashing.count(index))
            return group.size() == 1 ? std::optional<std::string>(
                                           "op " + std::to_string(index))
                                     : std::optional<std::string>("crashed");
        return std::optional<std::string>();
      };
      auto found = service::isolateCrashes(asked, probe);
      QVERIFY(found.ok());
      QCOMPARE(found->size(), crashing.size());
      for (const auto &[index, why] : *found) {
        QVERIFY2(crashing.count(index), std::to_string(index).c_str());
        QCOMPARE(why, "op " + std::to_string(index));
      }
      // One crasher among n: about 2 log2(n) probes, not n.
      if (crashing.size() == 1 && count >= 16)
        QVERIFY2(probes < count, (std::to_string(probes) + " probes for " +
                                  std::to_string(count) + " ops")
                                     .c_str());
    }
    QVERIFY(service::isolateCrashes({},
                                    [](const std::vector<size_t> &)
                                        -> service::CrashProbe::result_type {
                                      return Error{"asked about nothing"};
                                    })
                .ok());
  }

  void aProbeThatCannotAskStopsTheSearch() {
    auto failed = service::isolateCrashes(
        {1, 2, 3, 4},
        [](const std::vector<size_t> &group)
            -> service::CrashProbe::result_type {
          if (group.size() < 4)
            return Error{"no room for the probe's file"};
          return std::optional<std::string>("crashed");
        });
    QVERIFY(!failed.ok());
    QCOMPARE(failed.error(), std::string("no room for the probe's file"));
  }

  void crashesAreRememberedByKeyAndBounded() {
    service::KnownCrashes &known = service::KnownCrashes::shared();
    const size_t recalled = known.recalled();
    QVERIFY(!known.find("test-key-0"));
    known.add("test-key-0", "segfault 0");
    QCOMPARE(known.find("test-key-0").value_or(""), std::string("segfault 0"));
    QCOMPARE(known.recalled(), recalled + 1);
    for (size_t i = 1; i <= service::KnownCrashes::kMostKept; ++i)
      known.add("test-key-" + std::to_string(i), "segfault");
    QCOMPARE(known.size(), service::KnownCrashes::kMostKept);
    QVERIFY(!known.find("test-key-0")); // the oldest went
    QVERIFY(known.find("test-key-1").has_value());
    // Added again, a key is the newest: the next to go is another.
    known.add("test-key-1", "segfault again");
    known.add("test-key-new", "segfault");
    QCOMPARE(known.find("test-key-1").value_or(""),
             std::string("segfault again"));
    QVERIFY(!known.find("test-key-2"));
  }

  // IREE 3.13's insert-smt-constraints segfaults on a contraction with a
  // batch dimension (docs/editing.md).
  void aCrashIsKnownAtTheNextCheckOfTheSameDispatch() {
    iree::DocumentParser parser(test::projectCompiler());
    auto parsed =
        parser.parseFile(test::examplesDir() / "rocm_gfx942" /
                         "batch_matmul_f16_dispatch_0.benchmark.mlir");
    QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
    const tools::IreeInstallation iree = test::projectIree();
    service::KnownCrashes &known = service::KnownCrashes::shared();
    auto reasonOf = [&](const document::Document &document) {
      auto verdict = service::ireeConstraintVerdict(iree, document);
      if (!verdict)
        qFatal("%s", verdict.error().c_str());
      if (verdict->ops.size() != 1)
        qFatal("%zu verdicts", verdict->ops.size());
      return verdict->ops.front().reason;
    };

    const size_t before = known.recalled();
    const std::string first = reasonOf(*parsed);
    QVERIFY2(
        first.find("stating IREE's constraints for this op (IREE's bug)") !=
            std::string::npos,
        first.c_str());
    QCOMPARE(known.recalled(), before);
    // Checked again: known, and said the same way.
    QCOMPARE(reasonOf(*parsed), first);
    QCOMPARE(known.recalled(), before + 1);

    // Its dispatch changed (a comment in its function): asked again.
    document::Document edited = *parsed;
    document::RootOp &root = edited.dispatches.front().rootOps.front();
    edited.text.insert(edit::offsetOf(edited.text, root.line, 1),
                       "// edited\n");
    ++root.line;
    const std::string again = reasonOf(edited);
    QVERIFY2(again.find("(IREE's bug)") != std::string::npos, again.c_str());
    QCOMPARE(known.recalled(), before + 1);
  }
};

QTEST_GUILESS_MAIN(ConstraintCrashesTest)
#include "tst_constraint_crashes.moc"
