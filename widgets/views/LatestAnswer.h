// The window's one policy for work it hands to a thread to answer a
// question about what is on screen (IREE's reading of the edits, its
// pipeline constraints, its default config, its layouts, a release
// conversion, a sweep's plan): the newest question wins.
//
// - ask(work) runs `work` on a thread. While an earlier question runs, that
//   one is cancelled (its flag set) and `work` waits for it to end: IREE is
//   never asked twice at once on one view's behalf.
// - An answer reaches `deliver` only when it answers the newest question;
//   the answer to an older one is dropped here, and nowhere else.
// - drop(): the question no longer stands (another file, another op, a
//   problem found before asking): what runs is cancelled, its answer
//   dropped.
// - `settled` (optional) is called each time nothing runs or waits any more,
//   answered or dropped (a view re-enables its button there).
// - Destroying it cancels what runs and waits for it.
//
// Jobs a person starts and stops (a file's load, a run, a sweep, split-k)
// are not questions: their panels run one at a time, with Cancel.
#pragma once

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrent>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace tilescope::widgets {

template <typename T> class LatestAnswer {
public:
  using Work = std::function<T(const std::atomic<bool> *cancel)>;

  explicit LatestAnswer(std::function<void(T)> deliver,
                        std::function<void()> settled = {})
      : watcher(std::make_unique<QFutureWatcher<T>>()),
        deliver(std::move(deliver)), settled(std::move(settled)) {
    // The watcher is the connection's context: once it is gone, so is the
    // connection, and no late signal reaches a destroyed LatestAnswer.
    QObject::connect(watcher.get(), &QFutureWatcher<T>::finished, watcher.get(),
                     [this] { finished(); });
  }
  ~LatestAnswer() {
    if (cancel)
      *cancel = true;
    watcher->waitForFinished();
  }
  LatestAnswer(const LatestAnswer &) = delete;
  LatestAnswer &operator=(const LatestAnswer &) = delete;

  void ask(Work work) {
    ++asked;
    if (inFlight) {
      *cancel = true;
      waiting = std::move(work);
      return;
    }
    start(std::move(work));
  }

  void drop() {
    ++asked;
    waiting.reset();
    if (cancel)
      *cancel = true;
  }

  // A question runs or waits to, or its answer is not handled yet (the
  // work may be done while its finished signal waits in the event queue).
  bool busy() const { return inFlight || waiting.has_value(); }

private:
  void start(Work work) {
    running = asked;
    inFlight = true;
    cancel = std::make_shared<std::atomic<bool>>(false);
    watcher->setFuture(QtConcurrent::run(
        [work = std::move(work), flag = cancel] { return work(flag.get()); }));
  }

  void finished() {
    if (!watcher->isFinished())
      return; // a signal of a future replaced since
    inFlight = false;
    if (waiting) {
      Work next = std::move(*waiting);
      waiting.reset();
      start(std::move(next));
      return;
    }
    const bool current = running == asked;
    if (current)
      deliver(watcher->result());
    if (settled && !busy())
      settled();
  }

  std::unique_ptr<QFutureWatcher<T>> watcher;
  std::function<void(T)> deliver;
  std::function<void()> settled;
  std::optional<Work> waiting;
  std::shared_ptr<std::atomic<bool>> cancel;
  uint64_t asked = 0, running = 0;
  bool inFlight = false; // started, its answer not handled yet
};

} // namespace tilescope::widgets
