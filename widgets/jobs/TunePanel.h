// The Tune panel: a whole program tuned as `tilescope-cli tune` tunes it
// (core/tune): choose the program, the target, the budget and candidates
// per dispatch, and watch the table the command line prints fill, a row a
// dispatch (its share, IREE's default, the winner, the speedup, the
// outcome), then the spec and the program's end-to-end times below it. Run
// on a place elsewhere (ssh, Slurm), every timed and checked run goes there.
// The job runs on a worker thread, its tries in child processes (the parse
// worker reads IREE's output): the window's process never loads IREE.
#pragma once

#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/tune/Tune.h"
#include "core/workbench/Workbench.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStandardItemModel;
class QTableView;

namespace tilescope::widgets {

class RunPlaceBox;

class TunePanel : public QWidget {
  Q_OBJECT

public:
  // `bench` runs the tune (its IREE, parse worker and workspace); null:
  // Tune says there is no IREE.
  explicit TunePanel(std::shared_ptr<const workbench::Workbench> bench,
                     QWidget *parent = nullptr);
  ~TunePanel() override;

  void setProgram(const QString &path);
  void setTarget(const QString &target); // "llvm-cpu", "gfx942", "sm_90"
  void setCandidates(int perDispatch);
  void setBudgetMinutes(int minutes);
  // Where the timed and checked runs go: "local", "ssh:HOST",
  // "slurm:PARTITION" (the command line's --on).
  void setPlace(const QString &place);
  bool running() const;
  // The table: a row a dispatch, the command line's columns.
  const QStandardItemModel *rows() const { return model; }
  // The program's summary under the table (spec, end to end), as shown.
  QString summary() const;

public slots:
  void start();
  void stop();

signals:
  // The tune ended: `ok` unless it could not start or the program could not
  // be configured (`message` says why).
  void finished(bool ok, const QString &message);

private:
  void showDispatch(const tune::DispatchTune &tuned);
  void onFinished();
  void setRunning(bool running);

  std::shared_ptr<const workbench::Workbench> bench;
  QLineEdit *programEdit;
  QComboBox *targetBox;
  QSpinBox *budgetBox, *candidatesBox;
  RunPlaceBox *placeBox;
  QPushButton *browseButton, *startButton, *stopButton;
  QLabel *progressLabel;
  QPlainTextEdit *summaryText; // beside the table
  QTableView *table;
  QStandardItemModel *model;
  QFutureWatcher<Result<tune::TuneResult>> *watcher;
  std::shared_ptr<std::atomic<bool>> cancel;
};

} // namespace tilescope::widgets
