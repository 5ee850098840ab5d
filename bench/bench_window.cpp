// The window's responsiveness while jobs run, with the real IREE behind it:
//
//  1. Click to first output line of a compile: RunPanel's Compile on a file
//     iree-compile rejects, timed from the click to the compiler's first
//     line in the output pane, against the same iree-compile command run
//     bare to its first line. Goal: <= 100 ms over the bare command.
//  2. The GUI thread during a 16-candidate sweep from the sweep panel
//     (gfx942, compiled and resources read: no GPU needed): a 5 ms timer's
//     longest late tick is the longest stall. Goal: <= 50 ms.
//
// Offscreen (no display needed); prints figures, never fails on them.
#include "BenchIree.h"
#include "BenchSignals.h"
#include "BenchTiming.h"

#include "core/process/Process.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Files.h"
#include "core/workbench/Workbench.h"
#include "widgets/jobs/RunPanel.h"
#include "widgets/jobs/SweepPanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPlainTextEdit>
#include <QTimer>

#include <cstdio>
#include <iostream>
#include <thread>

using namespace tilescope;
using namespace tilescope::bench;

namespace {

constexpr int kRuns = 5;

// 1. Click to the compiler's first line: the run panel's Compile on a
// file iree-compile rejects, against the same command run bare. False
// (said why) where one showed no line.
bool clickToFirstLine(const std::shared_ptr<const workbench::Workbench> &source,
                      const document::Document &cpu,
                      const std::filesystem::path &folder) {
  document::Document broken = cpu;
  broken.text += "\nthis line is not MLIR\n";
  widgets::RunPanel panel(source, folder);
  panel.resize(1200, 300);
  panel.show();
  panel.setDocument(&broken, edit::OpRef{0, 0});
  auto *output = panel.findChild<QPlainTextEdit *>("jobOutput");
  std::vector<double> clicks;
  std::string command;
  for (int i = 0; i < kRuns; ++i) {
    Clock::time_point clicked;
    double first = -1;
    auto watch = QObject::connect(output, &QPlainTextEdit::textChanged, [&] {
      if (first < 0 && output->toPlainText().contains("error"))
        first = millisecondsSince(clicked);
    });
    clicked = Clock::now();
    panel.start(widgets::RunPanel::Job::Compile);
    if (!waitFor(&panel, &widgets::RunPanel::finished, 120000) || first < 0) {
      std::cerr << "the compile showed no compiler line: "
                << panel.lastSummary().toStdString() << "\n";
      return false;
    }
    QObject::disconnect(watch);
    clicks.push_back(first);
    command = panel.lastCommand().section('\n', 0, 0).toStdString();
  }
  std::vector<double> bare;
  for (int i = 0; i < kRuns; ++i) {
    process::ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", command}; // "cd TRY && iree-compile ..."
    double first = -1;
    const auto start = Clock::now();
    spec.onOutput = [&](std::string_view, bool) {
      if (first < 0)
        first = millisecondsSince(start);
    };
    process::runProcess(spec);
    if (first < 0) {
      std::cerr << "the bare compile printed nothing: " << command << "\n";
      return false;
    }
    bare.push_back(first);
  }
  const double window = median(clicks), alone = median(bare);
  std::printf("click to the compiler's first line (median of %d):\n", kRuns);
  std::printf("  from the run panel:            %8.1f ms\n", window);
  std::printf("  the same iree-compile, bare:   %8.1f ms\n", alone);
  std::printf("  over the bare command: %.1f ms (goal <= 100 ms)\n",
              window - alone);
  return true;
}

// 2. The GUI thread while 16 candidates compile from the sweep panel: a
// 5 ms timer's longest late tick. False (said why) where the sweep did
// not plan or finish.
bool guiDuringSweep(const std::shared_ptr<const workbench::Workbench> &source,
                    const document::Document &gfx942,
                    const std::filesystem::path &folder) {
  widgets::SweepPanel sweep(source, folder);
  sweep.resize(1400, 320);
  sweep.show();
  sweep.setDocument(&gfx942, edit::OpRef{0, 0});
  // The panel first plans from IREE's constraint space (as the CLI's sweep
  // does); this figure is of the 16 candidates named here.
  sweep.setFromIreeSpace(false);
  sweep.setAxes(
      {"workgroup[0]=32,64", "workgroup[1]=64,128", "reduction[2]=1,2,4,8"});
  for (int plans = 0;
       plans < 4 && (sweep.planning() || sweep.plannedCount() != 16); ++plans)
    if (!waitFor(&sweep, &widgets::SweepPanel::planned, 60000))
      break;
  if (sweep.planning() || sweep.validCount() != 16) {
    std::cerr << "the sweep did not plan 16 valid candidates ("
              << sweep.validCount() << ")\n";
    return false;
  }
  sweep.setTimed(false);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  sweep.setParallel(static_cast<int>(cores));
  QElapsedTimer clock;
  double longest = 0, last = 0;
  QTimer ticker;
  ticker.setInterval(5);
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    const double now = clock.nsecsElapsed() / 1e6;
    longest = std::max(longest, now - last - 5);
    last = now;
  });
  const auto start = Clock::now();
  clock.start();
  ticker.start();
  sweep.start();
  if (!waitFor(&sweep, &widgets::SweepPanel::finished, 600000)) {
    std::cerr << "the sweep did not finish\n";
    return false;
  }
  ticker.stop();
  std::printf("a 16-candidate gfx942 sweep from the sweep panel, %u at a "
              "time: %.1f s\n",
              cores, millisecondsSince(start) / 1000);
  std::printf("  longest GUI-thread stall: %.1f ms (goal <= 50 ms)\n", longest);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  auto installation = projectIree();
  if (!installation) {
    std::cerr << installation.error() << "\n";
    return 1;
  }
  service::DocumentWorker worker(std::filesystem::path(TILESCOPE_BINARY_DIR) /
                                     "app/tilescope-iree-worker",
                                 installation->compilerLibrary);
  auto open = [&](const char *relative) -> Result<document::Document> {
    const std::filesystem::path file =
        std::filesystem::path(TILESCOPE_SOURCE_DIR) / relative;
    auto document = worker.parseFile(file);
    auto text = readTextFile(file);
    if (!document || !text)
      return Error{document ? text.error() : document.error()};
    document->path = file;
    document->text = *text;
    return document;
  };
  auto work = TemporaryDirectory::create("tilescope-bench-window");
  auto cpu =
      open("examples/llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir");
  auto gfx942 =
      open("examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
  if (!work || !cpu || !gfx942) {
    std::cerr << (!work  ? work.error()
                  : !cpu ? cpu.error()
                         : gfx942.error())
              << "\n";
    return 1;
  }
  // The panels' workbench, as the window's main builds it: the project's
  // IREE and this build's parse worker.
  workbench::WorkbenchOptions options;
  options.iree = projectIreeSearch();
  options.workerProgram =
      std::filesystem::path(TILESCOPE_BINARY_DIR) / "app/tilescope-iree-worker";
  const auto source =
      std::make_shared<const workbench::Workbench>(std::move(options));
  if (!clickToFirstLine(source, *cpu, work->file("run")) ||
      !guiDuringSweep(source, *gfx942, work->file("sweep")))
    return 1;
  return 0;
}
