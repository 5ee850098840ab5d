// The sweep panel: choose the fields of the selected root op's config to
// vary and their values, see how many candidates that makes and which the
// rules refuse (and why), run the valid ones, and watch them arrive as they
// finish, each with a thumbnail of its layout, its resources and its time,
// ranked, and plotted against a varied field. A candidate loads back into
// the editor; Stop keeps what finished, and running the same sweep again
// resumes it from the history.
//
// The sweep is core/sweep's own (the one `tilescope-cli sweep` runs): planned
// and run on worker threads over a copy of the document, each try in child
// processes, so the window stays responsive and nothing a candidate does
// reaches the user's edits.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/sweep/Sweep.h"
#include "core/tools/IreeInstallation.h"
#include "core/workbench/Workbench.h"
#include "widgets/jobs/SweepPlanning.h"
#include "widgets/views/LatestAnswer.h"

#include <QFutureWatcher>
#include <QIcon>
#include <QImage>
#include <QWidget>

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableView;
class QTableWidget;
class QTimer;

class QCheckBox;

namespace tilescope::widgets {

class SweepResultsModel;

class SweepPlot;

class SweepPanel : public QWidget {
  Q_OBJECT

public:
  // A plan asks the workbench's IREE (its constraints, its space) and a
  // run is the workbench's (a whole program's candidates tried on their
  // dispatch alone); with none, a sweep says there is no IREE.
  SweepPanel(std::shared_ptr<const workbench::Workbench> bench,
             std::filesystem::path workspace, QWidget *parent = nullptr);
  ~SweepPanel() override;

  // The document a sweep varies (copied when it plans and runs) and its
  // root op; a new op starts from its neighbours (each non-zero workgroup
  // and reduction entry halved and doubled).
  void setDocument(const document::Document *document,
                   std::optional<edit::OpRef> op);
  // The axes, one "FIELD=V1,V2,..." each (the command line's --vary).
  void setAxes(const QStringList &axes);
  QStringList axes() const;
  // Time the candidates (where a device for the file's backend is here);
  // otherwise compile them and read their resources.
  void setTimed(bool timed);
  void setParallel(int candidates);
  // Check each candidate against IREE's pipeline constraints before it
  // compiles (the command line's --iree-constraints); the plan shows it.
  void setAskIree(bool ask);
  // Take the candidates from the space IREE's constraints allow, the
  // axes' fields varied (all when none), the `nearest` closest to the
  // config (the command line's --iree-space --nearest N).
  void setFromIreeSpace(bool fromSpace, int nearest = 32);

  void start();
  void stop();
  bool busy() const;
  bool planning() const;
  // Candidates planned and how many of them are valid (-1: no plan).
  int plannedCount() const { return static_cast<int>(entries.size()); }
  int validCount() const;
  // Candidate names, best first, as the table shows them.
  QStringList ranking() const;
  // Loads the candidate at `rank` (0: first) into the editor.
  bool loadRanked(int rank);
  // The history ids of the candidates that compiled (what a run bundle of
  // the sweep carries).
  std::vector<long long> compiledTries() const;

signals:
  void planned(int total, int valid);
  void finished(bool cancelled, const QString &summary);
  // A candidate's try to put back on the editor.
  void tryActivated(long long id);

private:
  // The panel's parts, made once by the constructor.
  QWidget *buildSettings();
  QGridLayout *buildOptions();
  QWidget *buildRunColumn(QWidget *settings);
  QSplitter *buildResults();

  struct Entry {
    sweep::SweepCandidate candidate;
    QImage thumbnail;
    QIcon icon;
    // On a cluster, before its result: "queued" or "running" (its task's).
    QString phase;
  };
  struct Arrival;
  sweep::SweepRequest request() const;
  QString axisProblem() const;
  std::vector<std::string> varyFields() const;
  void plan();
  void onPlanned(std::shared_ptr<SweepPlan> answer);
  void onArrived(const std::shared_ptr<Arrival> &arrival);
  void onFinished();
  void refresh();
  void refreshPlot();
  void addAxis(const QString &field);
  void fillFieldChoices();
  void resetToNeighbours();
  void setRunning(bool running);
  std::vector<int> ranked() const;
  // ". Fastest measured: NAME (T µs)" (or the predicted first), or nothing.
  QString firstPlace() const;
  // Compile on's partition ("" here), or why the text is not one.
  Result<std::string> compilePartition() const;

  std::shared_ptr<const workbench::Workbench> bench;
  std::filesystem::path workspaceFolder;
  const document::Document *current = nullptr;
  // The file and op last shown (kept by value: `current` may be gone by
  // the time the next document arrives).
  std::filesystem::path currentPath;
  std::optional<edit::OpRef> currentOp;
  // What a plan or a run reads; each worker holds its own reference.
  std::shared_ptr<const document::Document> snapshot;
  std::vector<Entry> entries; // in plan order
  std::map<std::string, int> byName;
  std::shared_ptr<std::atomic<bool>> cancelFlag;
  // From IREE's constraints: the points the last plan made (a run tries
  // those, not a new listing).
  std::vector<sweep::SweepPoint> plannedPoints;
  // IREE's constraints as the last plan had them stated (the run reuses
  // them for the same text and op).
  std::shared_ptr<const service::StatedConstraints> plannedStated;
  // The plan for the newest axes and op (LatestAnswer); a sweep is a job
  // the person starts and stops, one at a time.
  std::unique_ptr<LatestAnswer<std::shared_ptr<SweepPlan>>> planAnswer;
  QFutureWatcher<Result<sweep::SweepResult>> *runWatcher;
  QTimer *planTimer, *refreshTimer;
  // The op's config changed after a sweep ran: the results shown are
  // around the config before; Run plans first.
  bool planOutdated = false;
  bool sweepRunning = false; // a run's answer is not in yet
  int done = 0;

  QTableWidget *axesTable;
  QCheckBox *spaceBox;
  QSpinBox *nearestBox;
  class RunPlaceBox *placeBox;
  // On a cluster: "slurm:PARTITION" to compile the candidates there too (a
  // compile array the run array waits for); empty: here.
  QLineEdit *compileOnBox;
  QComboBox *fieldBox;
  QLineEdit *nameBox;
  QComboBox *stageBox;
  QSpinBox *parallelBox;
  QCheckBox *constraintsBox;
  QLabel *countLabel;
  QLabel *stateLabel;
  QProgressBar *progress;
  QPushButton *runButton, *stopButton, *loadButton;
  SweepResultsModel *candidates;
  QTableView *results;
  QComboBox *plotAxisBox;
  SweepPlot *plot;
};

} // namespace tilescope::widgets
