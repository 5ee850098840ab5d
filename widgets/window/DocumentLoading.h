// A file read into a document off the GUI thread (by the app's loader:
// IREE's parse worker), with the status bar's busy bar, the seconds it has
// taken and a Cancel that the loader sees. One load at a time; finished()
// comes once it is done, given up (cancelled) or not.
#pragma once

#include "core/document/Document.h"
#include "core/util/Result.h"
#include "widgets/window/WindowServices.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <chrono>
#include <memory>

class QProgressBar;
class QPushButton;
class QStatusBar;
class QTimer;

namespace tilescope::widgets {

class DocumentLoading : public QObject {
  Q_OBJECT

public:
  // The busy bar and Cancel go on `bar`, hidden until a load starts.
  DocumentLoading(WindowLoader loader, QStatusBar *bar,
                  QObject *parent = nullptr);
  ~DocumentLoading() override; // waits for the load under way

  // Starts reading `path`; false when a load is under way.
  bool start(const QString &path);
  bool running() const { return watcher->isRunning(); }
  // The file being (or last) read.
  QString path() const { return loading; }
  // Gives the load up: its answer, even one just finished, is dropped.
  void cancel();
  // The finished load's document (or why not); once.
  Result<document::Document> result() const { return watcher->result(); }

signals:
  // `cancelled`: given up; result() means nothing.
  void finished(bool cancelled);
  // "Loading FILE… 2.4 s (IREE parses it)", while it lasts.
  void ticking(const QString &message);

private:
  void showBusy(bool busy);

  WindowLoader loader;
  QString loading;
  QFutureWatcher<Result<document::Document>> *watcher;
  std::shared_ptr<std::atomic<bool>> cancelFlag;
  std::chrono::steady_clock::time_point started;
  QProgressBar *busyBar;
  QPushButton *cancelButton;
  QTimer *ticker;
};

} // namespace tilescope::widgets
