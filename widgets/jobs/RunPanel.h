// The run panel: compile the document as it stands, read its kernels'
// resources, time it on a device found here and check it against a CPU
// reference, from the window. Each job is core/tries' own (the same try
// the command line runs), in child processes on a worker thread, on a copy of
// the document taken when it starts: a crash, a hang or a cancel costs the
// try, never the window or the user's edits. Every try lands in the
// history, shown here for the open file.
#pragma once

#include "core/devices/GpuDiscovery.h"
#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/tries/History.h"
#include "core/workbench/Workbench.h"

#include <QFutureWatcher>
#include <QWidget>

#include <set>
#include <vector>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

class QAction;
class QGridLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableView;

namespace tilescope::widgets {

class InstructionsView;

class HistoryModel;
struct RunOutcome;

class RunPanel : public QWidget {
  Q_OBJECT

public:
  enum class Job { Compile, Resources, Run, Check, Profile };

  // Each job is the workbench's (its IREE; a whole program's root op tried
  // on its dispatch alone, read by its parse worker); with none, a job says
  // there is no IREE. Tries land in `workspace`'s history.
  RunPanel(std::shared_ptr<const workbench::Workbench> bench,
           std::filesystem::path workspace, QWidget *parent = nullptr);
  ~RunPanel() override;

  // The document the next job runs on (copied when it starts), the root op
  // it is about, and the file as opened (the history's configs are
  // compared with it; unset: with `document`).
  void setDocument(const document::Document *document,
                   std::optional<edit::OpRef> op,
                   const document::Document *original = nullptr);
  void start(Job job);
  void cancel();
  bool busy() const;
  // The checked run's program (guessed from the file's name when unset).
  void setProgram(const QString &path);
  // Selects, in the Instructions tab, the instructions that touch the loop
  // point `point` of the op's workgroup tile (its accumulator cell's store
  // and MMAs, its LHS and RHS elements' loads, shared stores and loads);
  // false where the kernel shown links none.
  bool showInstructionsOfCell(const std::vector<int64_t> &point);
  const std::filesystem::path &workspace() const { return workspaceFolder; }
  // The last job's summary line and the command that reproduces it.
  QString lastSummary() const { return summaryLine; }
  QString lastCommand() const { return commandLine; }
  // The tries picked in the history table, and the table read again (after
  // results were imported into the history).
  QList<long long> selectedTries() const;
  void refreshHistory();

signals:
  void finished(bool ok, const QString &summary);
  // An instruction of the Instructions tab that touches cells was chosen:
  // its cells (loop points of the op's workgroup tile, -1 for a loop left
  // open), in words; empty: none.
  void instructionCellsChosen(const std::set<std::vector<int64_t>> &cells,
                              const QString &what);
  // A try of the history table was double-clicked: load it.
  void tryActivated(long long id);
  // Two tries of the history table were picked to see side by side (the
  // older as A).
  void compareRequested(long long a, long long b);
  // A diagnostic was clicked: the op, the config field it names (may be
  // empty) and the line.
  void fieldActivated(edit::OpRef op, const QString &field, int line);

private:
  // The panel's parts, made once by the constructor.
  QWidget *buildControls();
  QGridLayout *buildJobButtons();
  QTabWidget *buildResultTabs();
  QWidget *buildHistoryPage();
  void onFinished();
  void append(const QString &text);
  void refreshDevice();
  void setBusy(bool running);

  std::shared_ptr<const workbench::Workbench> bench;
  std::filesystem::path workspaceFolder;
  std::unique_ptr<document::Document> snapshot; // what the running job reads
  const document::Document *current = nullptr;
  // The file last shown, by value (`current` may be gone when the next
  // document arrives).
  std::filesystem::path currentPath;
  // The configs of the file as opened, in the form a try's configs are
  // read back in (documentFromConfigs), for the history's comparison.
  document::Document originalConfigs;
  std::optional<edit::OpRef> currentOp;
  std::optional<devices::GpuDiscovery> discovery;
  std::shared_ptr<std::atomic<bool>> cancelFlag;
  QFutureWatcher<std::shared_ptr<RunOutcome>> *watcher;
  QString summaryLine, commandLine;

  QLabel *targetLabel;
  QLabel *deviceLabel;
  QLabel *stateLabel;
  QLineEdit *programBox;
  class RunPlaceBox *placeBox;
  QPushButton *cancelButton;
  QList<QPushButton *> jobButtons;
  QTabWidget *tabs;
  QPlainTextEdit *output;
  QListWidget *diagnostics;
  QPlainTextEdit *resources;
  InstructionsView *instructions;
  HistoryModel *tries;
  QTableView *history;
  QPushButton *compareButton;
};

} // namespace tilescope::widgets
