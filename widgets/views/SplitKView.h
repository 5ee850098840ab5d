// The split-k view of a whole program (or one part of a `// -----` file):
// which reductions IREE's split-reduction heuristic splits, by how much and
// by which rule with the numbers it compared, the picture of the chunks and
// partial results, and the dispatches formed. A person types their own
// split for any reduction (checked as typed: one tile per reduction loop,
// none larger than its loop) and forms the dispatches again; the program
// with those splits can be saved for `iree-compile --compile-from=
// global-optimization`. The CLI's `split-k` does the same (core/service/SplitK,
// run by the app: widgets never call IREE).
#pragma once

#include "core/document/ProgramReductions.h"
#include "core/service/SplitK.h"
#include "core/util/Result.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QHBoxLayout;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTableWidgetItem;
class QTabWidget;

namespace tilescope::widgets {

class SceneView;

class SplitKView : public QWidget {
  Q_OBJECT

public:
  using Analyzer = std::function<Result<service::SplitKAnalysis>(
      const service::SplitKRequest &)>;
  using Applier = std::function<Result<service::SplitKApplied>(
      const service::SplitKRequest &, const service::SplitKAnalysis &,
      const std::vector<document::SplitChoice> &)>;

  explicit SplitKView(QWidget *parent = nullptr);
  ~SplitKView() override;

  // Unset: the view says there is no IREE to ask.
  void setRunners(Analyzer analyzer, Applier applier);
  // The file IREE is asked about (as saved on disk), how many `// -----`
  // parts it has and how many dispatches it already holds (a dispatch
  // benchmark or dump: split-k happened before them); a new file clears
  // the answer on screen.
  void setFile(const QString &path, int partCount, size_t dispatches = 0);
  // The target asked for ("gfx942", "sm_90", ...).
  void setTarget(const QString &target);
  QString target() const;
  void setPart(int part);

  // Ask IREE (the button): its splits, the rules and the dispatches.
  void analyze();
  // Form the dispatches with the splits typed (the button).
  void formDispatches();
  void cancel();
  bool isRunning() const;

  // A person's split for reduction row `row`, as typed in its cell: sizes
  // ("640", "[1, 64]"), "none" (not split), or empty (IREE's). An Error
  // (also shown on the row) says why it cannot be taken.
  Result<bool> setSplit(int row, const QString &text);
  // The splits that differ from IREE's, as the CLI's --set/--clear take them.
  std::vector<document::SplitChoice> choices() const;

  const std::optional<service::SplitKAnalysis> &analysis() const {
    return shown;
  }
  const std::optional<service::SplitKApplied> &applied() const {
    return formed;
  }
  // The program at the split point with the splits formed last; false with
  // `error` when there is none or it cannot be written.
  bool saveProgram(const QString &path, QString *error = nullptr) const;
  SceneView *pictureView() const { return picture; }
  QString summaryText() const;
  // The last iree-compile run, as a shell command (Copy command).
  const QString &commandText() const { return lastCommand; }

signals:
  // IREE answered (ok) or could not (the message says why).
  void finished(bool ok, const QString &summary);
  // A reduction or a dispatched op was chosen: its line in the open file.
  void sourceActivated(int line);

private:
  QHBoxLayout *controls();
  void buildTable();
  QWidget *lowerPanes();
  struct Outcome {
    std::optional<Result<service::SplitKAnalysis>> analysis;
    std::optional<Result<service::SplitKApplied>> applied;
  };
  void start(bool apply);
  void onFinished();
  void onProgress(const QString &step);
  void showAnalysis();
  void showDispatches(const std::vector<document::FormedDispatch> &dispatches,
                      const QString &title);
  void showReduction(int row);
  void onSplitEdited(QTableWidgetItem *item);
  void saveWithDialog();
  void say(const QString &text);
  void setCommand(const QString &text);
  service::SplitKRequest request() const;
  int activeLine(const std::optional<document::SourceLocation> &source) const;

  Analyzer analyzer;
  Applier applier;
  QString file;
  int parts = 1;
  size_t formedAlready = 0; // dispatches the file holds
  std::optional<service::SplitKAnalysis> shown;
  std::optional<service::SplitKApplied> formed;
  // The person's splits, by reduction row: sizes, or nullopt for none.
  std::map<int, std::optional<std::vector<int64_t>>> typed;
  bool filling = false; // the table is being filled, not edited
  std::shared_ptr<std::atomic<bool>> stop =
      std::make_shared<std::atomic<bool>>(false);
  QFutureWatcher<Outcome> *watcher;

  QComboBox *targetBox;
  QSpinBox *partBox;
  QLabel *partLabel;
  QCheckBox *lowBox;
  QPushButton *askButton, *formButton, *saveButton, *cancelButton;
  QLabel *summary;
  QPushButton *copyButton;
  QString lastCommand; // the last iree-compile run, as a shell command
  QTableWidget *table;
  SceneView *picture;
  QPlainTextEdit *reasons;
  QTabWidget *side; // Why | Dispatches
  QListWidget *dispatchList;
};

} // namespace tilescope::widgets
