// Waiting for a Qt signal in the window benchmarks.
#pragma once

#include <QEventLoop>
#include <QObject>
#include <QTimer>

namespace tilescope::bench {

// Waits for `signal` of `object` (or `limitMs`); false on the limit.
template <typename Object, typename Signal>
bool waitFor(Object *object, Signal signal, int limitMs) {
  QEventLoop loop;
  bool fired = false;
  QObject::connect(object, signal, &loop, [&] {
    fired = true;
    loop.quit();
  });
  QTimer::singleShot(limitMs, &loop, &QEventLoop::quit);
  loop.exec();
  return fired;
}

} // namespace tilescope::bench
