#include "widgets/window/DocumentLoading.h"

#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace tilescope::widgets {

DocumentLoading::DocumentLoading(WindowLoader documentLoader, QStatusBar *bar,
                                 QObject *parent)
    : QObject(parent), loader(std::move(documentLoader)),
      watcher(new QFutureWatcher<Result<document::Document>>(this)) {
  busyBar = new QProgressBar;
  busyBar->setObjectName("loadProgress");
  busyBar->setRange(0, 0);
  busyBar->setMaximumWidth(160);
  cancelButton = new QPushButton("Cancel");
  cancelButton->setObjectName("loadCancelButton");
  connect(cancelButton, &QPushButton::clicked, this, &DocumentLoading::cancel);
  bar->addPermanentWidget(busyBar);
  bar->addPermanentWidget(cancelButton);
  ticker = new QTimer(this);
  ticker->setInterval(200);
  connect(ticker, &QTimer::timeout, this, [this] {
    const double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - started)
                               .count();
    emit ticking(QString("Loading %1… %2 s (IREE parses it)")
                     .arg(loading)
                     .arg(seconds, 0, 'f', 1));
  });
  connect(watcher, &QFutureWatcher<Result<document::Document>>::finished, this,
          [this] {
            showBusy(false);
            emit finished(cancelFlag && cancelFlag->load());
          });
  showBusy(false);
}

DocumentLoading::~DocumentLoading() { watcher->waitForFinished(); }

bool DocumentLoading::start(const QString &path) {
  if (watcher->isRunning())
    return false;
  loading = path;
  const std::filesystem::path file = path.toStdString();
  cancelFlag = std::make_shared<std::atomic<bool>>(false);
  started = std::chrono::steady_clock::now();
  showBusy(true);
  // The worker holds the flag the loader reads.
  watcher->setFuture(
      QtConcurrent::run([read = loader, file, cancel = cancelFlag]() {
        return read(file, cancel.get());
      }));
  return true;
}

void DocumentLoading::cancel() {
  // Until its answer is shown, a load can be given up: a parse that has
  // just finished is dropped as well.
  if (cancelFlag && !busyBar->isHidden())
    cancelFlag->store(true);
}

void DocumentLoading::showBusy(bool busy) {
  busyBar->setVisible(busy);
  cancelButton->setVisible(busy);
  if (busy)
    ticker->start();
  else
    ticker->stop();
}

} // namespace tilescope::widgets
