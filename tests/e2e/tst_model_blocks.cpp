// Every root op of every model block in examples/models/ (a Llama-3-8B
// decoder layer, SDXL UNet res blocks, and a ResNet-50 block built as an
// ONNX model with the `onnx` package and imported by IREE's own
// iree-import-onnx, here), configured by the pinned iree-compile for sm_90
// and gfx942, through tilescope-cli as a user would run it:
//
//  - IREE's own config is no error (check), or check says in words that it
//    does not judge that kind of config (a Distribute copy's
//    #iree_codegen.lowering_config);
//  - explain lays it out (attention as its Q.K^T and P.V contractions, whose
//    six layouts iree-layouts finds equal to IREE's), or says in words that
//    it does not judge that kind of config;
//  - a sweep plan of IREE's root op has valid candidates: at least 8 for
//    every contraction and convolution (IREE's space where IREE states one,
//    else the rules' neighbourhood, and it says which); an op fused into
//    the root op says it runs on the root's tiles;
//  - its dispatch compiles alone to a kernel whose resources are read.
//
// The tally per kind is printed, so a run shows what each kind got.
#include "CliRunner.h"
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>

using namespace tilescope;
using test::cli;
using test::failure;
using test::jsonOf;

namespace {

const QString kModels = TILESCOPE_SOURCE_DIR "/examples/models/";

} // namespace

class ModelBlocksTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;

  // `python -m MODULE ARGS...` (or a script) with the pinned onnx and
  // IREE's Python packages; its output when it fails.
  QString python(const QStringList &arguments) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH",
               QString(TILESCOPE_ONNX_PREFIX) + ":" + TILESCOPE_IREE_PREFIX);
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(TILESCOPE_PYTHON, arguments);
    if (!process.waitForFinished(300000) ||
        process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
      return "python " + arguments.join(' ') + " failed:\n" +
             QString::fromUtf8(process.readAll()) + process.errorString();
    return {};
  }

  void runModel(const QString &model, const QString &target,
                int dispatchesAtLeast = 8) {
    const QString configured =
        workspace.filePath(model + "." + target + ".mlir");
    auto made = cli({"configure", kModels + model + ".mlir", "--target", target,
                     "-o", configured});
    QVERIFY2(made.exitCode == 0, qPrintable(failure(made)));
    auto listed = cli({"dispatches", configured, "--json"});
    QVERIFY2(listed.exitCode == 0, qPrintable(failure(listed)));
    const QJsonArray dispatches = jsonOf(listed)["dispatches"].toArray();
    QVERIFY(dispatches.size() >= dispatchesAtLeast);
    QMap<QString, int> ops, laidOut, swept, compiled;
    for (int d = 0; d < dispatches.size(); ++d) {
      const QJsonArray rootOps = dispatches[d].toObject()["root_ops"].toArray();
      for (int o = 0; o < rootOps.size(); ++o) {
        const QString kind = rootOps[o].toObject()["kind"].toString();
        const QString ref = QString("%1:%2").arg(d).arg(o);
        const QString where = model + " " + target + " " + ref + " " + kind;
        ++ops[kind];

        auto checked = cli({"check", configured, "--op", ref, "--json"});
        const bool judged =
            checked.exitCode == 0 || !checked.err.contains("not an #iree_gpu");
        if (judged) {
          QVERIFY2(checked.exitCode == 0,
                   qPrintable(where + ": " + failure(checked)));
          for (const QJsonValue &p : jsonOf(checked)["problems"].toArray())
            QVERIFY2(p.toObject()["severity"].toString() != "error",
                     qPrintable(where + ": " + checked.out));
        }

        auto explained = cli({"explain", configured, "--op", ref});
        if (explained.exitCode == 0)
          ++laidOut[kind];
        else
          QVERIFY2(!judged && explained.err.contains("not an #iree_gpu"),
                   qPrintable(where + ": " + failure(explained)));
        if (kind == "attention") {
          QVERIFY2(explained.out.contains("Q.K^T over") &&
                       explained.out.contains("P.V over"),
                   qPrintable(where + ": " + explained.out));
          auto layouts = cli({"iree-layouts", configured, "--op", ref});
          QVERIFY2(layouts.exitCode == 0 && layouts.out.contains("agree"),
                   qPrintable(where + ": " + failure(layouts)));
        }

        // A sweep tunes IREE's root op of the dispatch; an op fused into it
        // runs on its tiles and says so.
        // (IREE's root_op mark where the file has it, else the first op,
        // as the CLI's default op is chosen.)
        bool marked = false;
        for (const QJsonValue &other : rootOps)
          marked = marked || other.toObject().contains("root_op_set");
        const bool root =
            marked ? rootOps[o].toObject().contains("root_op_set") : o == 0;
        if (judged && kind != "attention" && !root) {
          auto plan = cli({"sweep", configured, "--op", ref, "--plan"});
          QVERIFY2(plan.exitCode == 0 ||
                       plan.err.contains("runs on the root op's tiles"),
                   qPrintable(where + ": " + failure(plan)));
        } else if (judged && kind != "attention") {
          auto plan = cli({"sweep", configured, "--op", ref, "--plan", "--json",
                           "--workspace", workspace.path()});
          QVERIFY2(plan.exitCode == 0,
                   qPrintable(where + ": " + failure(plan)));
          const QJsonObject out = jsonOf(plan);
          QVERIFY2(!out["neighbourhood"].toString().isEmpty(),
                   qPrintable(where + ": " + plan.out.left(2000)));
          const int valid = out["valid"].toInt();
          if (kind == "contraction" || kind == "convolution")
            QVERIFY2(valid >= 8,
                     qPrintable(where + ": " + out["neighbourhood"].toString() +
                                " " + plan.out.left(3000)));
          if (valid > 0)
            ++swept[kind];
        }

        auto resources = cli({"resources", configured, "--op", ref, "--json",
                              "--workspace", workspace.path()});
        QVERIFY2(resources.exitCode == 0,
                 qPrintable(where + ": " + failure(resources)));
        const QJsonArray kernels =
            jsonOf(resources)["resources"].toObject()["kernels"].toArray();
        QVERIFY2(kernels.size() == 1,
                 qPrintable(where + ": " + resources.out.left(2000)));
        ++compiled[kind];
      }
    }
    for (auto it = ops.begin(); it != ops.end(); ++it)
      qInfo("%s on %s: %d %s root ops, %d laid out, %d swept, %d compiled",
            qPrintable(model), qPrintable(target), it.value(),
            qPrintable(it.key()), laidOut.value(it.key()),
            swept.value(it.key()), compiled.value(it.key()));
  }

private slots:
  void decoderLayerOnGfx942() { runModel("llama3_8b_decoder_layer", "gfx942"); }
  void decoderLayerOnSm90() { runModel("llama3_8b_decoder_layer", "sm_90"); }
  void unetResblockOnGfx942() { runModel("sdxl_unet_resblock", "gfx942"); }
  void unetResblockOnSm90() { runModel("sdxl_unet_resblock", "sm_90"); }

  // The ONNX model is built with the `onnx` package and imported by IREE's
  // iree-import-onnx here; the import is the example's file, line for line
  // (a new onnx or IREE that imports it otherwise says so).
  void onnxModelIsImportedAsIs() {
    QVERIFY2(QFile::exists(TILESCOPE_ONNX_PREFIX "/onnx/__init__.py"),
             "no onnx package in " TILESCOPE_ONNX_PREFIX
             ": scripts/tilescope.sh deps unpacks it");
    const QString onnxFile = workspace.filePath("resnet50_bottleneck.onnx");
    const QString imported = workspace.filePath("imported.mlir");
    QString failed =
        python({kModels + "resnet50_bottleneck_onnx.py", onnxFile});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    failed = python(
        {"-m", "iree.compiler.tools.import_onnx", onnxFile, "-o", imported});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QFile made(imported), example(kModels + "resnet50_bottleneck_onnx.mlir");
    QVERIFY(made.open(QIODevice::ReadOnly) &&
            example.open(QIODevice::ReadOnly));
    QVERIFY2(made.readAll() == example.readAll(),
             "iree-import-onnx no longer writes "
             "examples/models/resnet50_bottleneck_onnx.mlir: remake it as "
             "examples/models/resnet50_bottleneck_onnx.py says");
  }
  void onnxModelOnGfx942() {
    runModel("resnet50_bottleneck_onnx", "gfx942", 6);
  }
  void onnxModelOnSm90() { runModel("resnet50_bottleneck_onnx", "sm_90", 6); }
};

QTEST_GUILESS_MAIN(ModelBlocksTest)
#include "tst_model_blocks.moc"
