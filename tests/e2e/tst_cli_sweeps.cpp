// Sweeps from tilescope-cli, as a user runs them, against the pinned IREE:
// the candidates IREE's own constraints allow (--iree-space), attention's
// decomposition varied, candidates asked of IREE's constraints, and a
// sweep planned, run on the CPU and resumed from the history (the other
// jobs: tst_cli_jobs).
#include "CliRunner.h"
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>

using namespace tilescope;
using test::cli;
using test::failure;
using test::jsonOf;
using test::kExamples;

class CliSweepsTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;
  QStringList inWorkspace(QStringList arguments) {
    return arguments << "--workspace" << workspace.path();
  }

private slots:
  // --iree-space: the candidates are the knob assignments IREE's
  // constraints allow, nearest the config first; the fields not varied
  // hold, the knobs an assert sets (workgroup_size) follow.
  void aSweepListsIreesConstraintSpace() {
    const QString file =
        kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
    auto all = cli(
        {"sweep", file, "--iree-space", "--plan", "--json", "--nearest", "0"});
    QVERIFY2(all.exitCode == 0, qPrintable(failure(all)));
    const QJsonObject space = jsonOf(all)["iree_space"].toObject();
    QCOMPARE(space["pipeline"].toString(), QString("TileAndFuse"));
    QCOMPARE(space["size"].toInt(), 1369);
    QCOMPARE(space["current_in_space"].toBool(), true);
    QCOMPARE(jsonOf(all)["total"].toInt(), 1368); // the config left out

    auto workgroup = cli({"sweep", file, "--iree-space", "--plan", "--json",
                          "--vary", "workgroup"});
    QVERIFY2(workgroup.exitCode == 0, qPrintable(failure(workgroup)));
    const QJsonObject out = jsonOf(workgroup);
    QCOMPARE(out["iree_space"].toObject()["size"].toInt(), 6);
    const QJsonArray candidates = out["candidates"].toArray();
    QCOMPARE(candidates.size(), 5);
    // Nearest first: one tile halved, the workgroup size following.
    QCOMPARE(candidates[0].toObject()["candidate"].toString(),
             QString("workgroup=[32, 128, 0] "
                     "translation_info.workgroup_size=[128, 1, 1]"));
    for (const QJsonValue &c : candidates)
      QVERIFY(c.toObject()["valid"].toBool());

    auto bad =
        cli({"sweep", file, "--iree-space", "--plan", "--vary", "lane_basis"});
    QVERIFY(bad.exitCode != 0);
    QVERIFY2(bad.err.contains("'lane_basis' has no knob in IREE's "
                              "TileAndFuse constraints"),
             qPrintable(bad.err));
  }

  // --iree-constraints: each valid candidate checked against the pipeline
  // constraints IREE states for the op; one they reject is invalid, named
  // by IREE's assert. IREE's TileAndFuse constraints want
  // prefetch_num_stages 2 here; the rules let 1 pass, so without the flag
  // the plan keeps it. (subgroup_size 32 on gfx942 the rules call an error,
  // as `check` does: the plan never compiles it.)
  // Attention's own knobs: on gfx942 IREE's attention space (over the
  // decomposition_config: both intrinsics, col_major marked as IREE marks
  // it); on sm_90, where IREE states none, the tiles' neighbours and the
  // subgroups on the query rows, bases and workgroup_size following.
  void attentionSweepsItsDecomposition() {
    auto gfx942 =
        cli({"sweep",
             kExamples + "rocm_gfx942/attention_f16_dispatch_0.benchmark.mlir",
             "--plan", "--json"});
    QVERIFY2(gfx942.exitCode == 0, qPrintable(failure(gfx942)));
    QCOMPARE(jsonOf(gfx942)["neighbourhood"].toString(),
             QString("iree-constraints"));
    bool intrinsic = false;
    for (const QJsonValue &c : jsonOf(gfx942)["candidates"].toArray()) {
      const QString name = c.toObject()["candidate"].toString();
      QVERIFY2(c.toObject()["valid"].toBool(), qPrintable(name));
      // MFMA_F32_16x16x16_F16's ACC is its own RHS layout: col_major on both.
      if (name.contains("qk_attrs.mma_kind=#iree_gpu.mma_layout<MFMA_F32_"
                        "16x16x16_F16, col_major = true>") &&
          !name.contains("pv_attrs.mma_kind"))
        intrinsic = true;
    }
    QVERIFY(intrinsic);
    auto sm90 =
        cli({"sweep",
             TILESCOPE_SOURCE_DIR "/tests/core/edit/data/attention_sm_90.mlir",
             "--plan", "--json"});
    QVERIFY2(sm90.exitCode == 0, qPrintable(failure(sm90)));
    QCOMPARE(jsonOf(sm90)["neighbourhood"].toString(), QString("rules"));
    int subgroups = 0;
    for (const QJsonValue &c : jsonOf(sm90)["candidates"].toArray()) {
      const QJsonObject candidate = c.toObject();
      if (!candidate["candidate"].toString().contains("subgroups on d1"))
        continue;
      ++subgroups;
      QVERIFY2(candidate["valid"].toBool(),
               qPrintable(candidate["candidate"].toString()));
    }
    QCOMPARE(subgroups, 3); // 2 x 16 or 32 rows, 8 x 16 (8 x 8 pads)
  }

  void aSweepAsksIreesConstraints() {
    const QString file =
        kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
    const QStringList plan = {
        "sweep", file, "--vary", "prefetch_num_stages=1,2", "--plan", "--json"};
    auto rulesOnly = cli(plan);
    QVERIFY2(rulesOnly.exitCode == 0, qPrintable(failure(rulesOnly)));
    QCOMPARE(jsonOf(rulesOnly)["valid"].toInt(), 2);

    auto asked = cli(QStringList(plan) << "--iree-constraints");
    QVERIFY2(asked.exitCode == 0, qPrintable(failure(asked)));
    const QJsonObject out = jsonOf(asked);
    QCOMPARE(out["valid"].toInt(), 1);
    const QJsonArray candidates = out["candidates"].toArray();
    QCOMPARE(candidates.size(), 2);
    const QJsonObject rejected = candidates[0].toObject();
    QCOMPARE(rejected["candidate"].toString(),
             QString("prefetch_num_stages=1"));
    QCOMPARE(rejected["valid"].toBool(), false);
    QCOMPARE(rejected["why_not"].toString(),
             QString("translation_info.prefetch_num_stages: "
                     "prefetch_num_stages == 2 (use_igemm_convolution=false) "
                     "[iree-constraints]"));
    QCOMPARE(rejected["iree_verdict"].toString(), QString("violated"));
    // IREE stated the constraints once; Tilescope ran them per candidate.
    QCOMPARE(rejected["iree_verdict_by"].toString(), QString("tilescope"));
    QCOMPARE(candidates[1].toObject()["iree_verdict"].toString(),
             QString("holds"));

    // A run compiles only what IREE's constraints let through.
    auto ran =
        cli(inWorkspace({"sweep", file, "--vary", "prefetch_num_stages=1,2",
                         "--iree-constraints", "--compile-only", "--name",
                         "iree-checked", "--json"}));
    QVERIFY2(ran.exitCode == 0, qPrintable(failure(ran)));
    QCOMPARE(jsonOf(ran)["ran"].toInt(), 1);
    QCOMPARE(jsonOf(ran)["invalid"].toInt(), 1);

    // The rules' error is the plan's verdict too, without asking IREE.
    auto wave32 = cli(
        {"sweep", file, "--vary", "subgroup_size=32,64", "--plan", "--json"});
    QVERIFY2(wave32.exitCode == 0, qPrintable(failure(wave32)));
    QCOMPARE(jsonOf(wave32)["valid"].toInt(), 1);
  }

  void aSweepPlansRunsAndResumes() {
    const QString file =
        kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
    // With no --vary the neighbourhood is IREE's where IREE states
    // constraints for the op: the 32 assignments nearest the config.
    auto iree = cli({"sweep", file, "--plan", "--json"});
    QVERIFY2(iree.exitCode == 0, qPrintable(failure(iree)));
    QCOMPARE(jsonOf(iree)["neighbourhood"].toString(),
             QString("iree-constraints"));
    QCOMPARE(jsonOf(iree)["total"].toInt(), 32);
    QCOMPARE(jsonOf(iree)["valid"].toInt(), 32);
    // Elsewhere (a reduction: IREE 3.13 states no constraints for it) the
    // rules', with IREE's reason.
    auto reduction =
        cli({"sweep",
             kExamples +
                 "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir",
             "--plan", "--json"});
    QVERIFY2(reduction.exitCode == 0, qPrintable(failure(reduction)));
    QCOMPARE(jsonOf(reduction)["neighbourhood"].toString(), QString("rules"));
    QVERIFY2(jsonOf(reduction)["why_not_iree"].toString().contains(
                 "IREE states no constraints for VectorDistribute"),
             qPrintable(jsonOf(reduction)["why_not_iree"].toString()));
    // Its threads' step and the subgroups on its reduction loop halved and
    // doubled beside its tiles, partial_reduction and workgroup_size
    // following: every candidate consistent.
    const QJsonArray spread = jsonOf(reduction)["candidates"].toArray();
    QCOMPARE(spread.size(), 12);
    int twoSubgroups = 0;
    for (const QJsonValue &value : spread) {
      const QJsonObject c = value.toObject();
      QVERIFY2(c["valid"].toBool(), qPrintable(c["candidate"].toString()));
      if (c["candidate"].toString().contains("subgroups[1]=2")) {
        ++twoSubgroups;
        QCOMPARE(c["settings"].toObject()["workgroup_size"].toString(),
                 QString("[128, 1, 1]"));
      }
    }
    QCOMPARE(twoSubgroups, 6);

    auto plan = cli({"sweep", file, "--plan", "--json", "--no-iree-space"});
    QVERIFY2(plan.exitCode == 0, qPrintable(failure(plan)));
    // The rules' neighbours: workgroup [64, 128, 0] and reduction [0, 0, 8],
    // each non-zero entry halved and doubled, workgroup_size following the
    // subgroups each tile makes; those past gfx942's 64 KiB of LDS are
    // invalid, with the rule's reason.
    const QJsonObject planned = jsonOf(plan);
    QCOMPARE(planned["neighbourhood"].toString(), QString("rules"));
    QCOMPARE(planned["total"].toInt(), 27);
    QCOMPARE(planned["valid"].toInt(), 17);
    // No candidate keeps a workgroup_size its tiles contradict.
    for (const QJsonValue &c : planned["candidates"].toArray())
      for (const QJsonValue &p : c.toObject()["problems"].toArray())
        QVERIFY(p.toObject()["rule"].toString() !=
                "tile-and-fuse-workgroup-size");
    bool sawSharedMemory = false;
    for (const QJsonValue &c : planned["candidates"].toArray())
      if (!c.toObject()["valid"].toBool())
        sawSharedMemory =
            sawSharedMemory ||
            c.toObject()["why_not"].toString().contains("[shared-memory]");
    QVERIFY(sawSharedMemory);

    const QStringList sweep =
        inWorkspace({"sweep", file, "--vary", "workgroup[0]=32,64", "--vary",
                     "reduction[2]=4,8,32", "--compile-only", "--jobs", "2",
                     "--name", "resume-test", "--json"});
    auto first = cli(sweep);
    QVERIFY2(first.exitCode == 0, qPrintable(failure(first)));
    const QJsonObject ran = jsonOf(first);
    QCOMPARE(ran["ran"].toInt(), 4);
    QCOMPARE(ran["invalid"].toInt(), 2); // reduction 32: 128+ KiB of LDS
    const QJsonArray candidates = ran["candidates"].toArray();
    QCOMPARE(candidates.size(), 6);
    // The compiled ones carry their real resources.
    const QJsonObject best = candidates[0].toObject();
    QCOMPARE(best["outcome"].toString(), QString("ok"));
    QVERIFY(best["resources"]
                .toObject()["kernels"]
                .toArray()[0]
                .toObject()
                .contains("vgprs"));

    auto again = cli(sweep);
    QVERIFY2(again.exitCode == 0, qPrintable(failure(again)));
    QCOMPARE(jsonOf(again)["ran"].toInt(), 0);
    QCOMPARE(jsonOf(again)["resumed"].toInt(), 4);
    auto history =
        cli(inWorkspace({"history", "--sweep", "resume-test", "--json"}));
    QVERIFY2(history.exitCode == 0, qPrintable(failure(history)));
    const QJsonArray tries =
        QJsonDocument::fromJson(history.out.toUtf8()).array();
    QCOMPARE(tries.size(), 4);
    // A sweep is named, not numbered: a number gets the names there are.
    auto numbered = cli(inWorkspace({"history", "--sweep", "1"}));
    QVERIFY2(numbered.out.contains("takes a sweep's name") &&
                 numbered.out.contains("\"resume-test\""),
             qPrintable(numbered.out));
    // Each try records its candidate's configs, not the file's.
    QSet<QString> configs;
    for (const QJsonValue &t : tries)
      configs << t.toObject()["details"]
                     .toObject()["configs"]
                     .toObject()["0:0"]
                     .toObject()["lowering_config"]
                     .toString();
    QCOMPARE(configs.size(), 4);

    auto bad = cli({"sweep", file, "--vary", "workgroup[7]=1,2", "--plan"});
    QCOMPARE(bad.exitCode, 0);
    QVERIFY2(bad.out.contains("has 3 entries"), qPrintable(bad.out));
  }
};

QTEST_GUILESS_MAIN(CliSweepsTest)
#include "tst_cli_sweeps.moc"
