// The window's one stale-answer policy (widgets/views/LatestAnswer): the newest
// question wins, an older one is cancelled and its answer dropped, never
// two run at once, and a dropped question delivers nothing.
#include "widgets/views/LatestAnswer.h"

#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace tilescope::widgets;

namespace {

// Work that runs until cancelled or released, counting how many run at once.
struct Gate {
  std::atomic<bool> release{false};
  std::atomic<int> running{0}, mostAtOnce{0}, sawCancel{0};

  LatestAnswer<int>::Work work(int value) {
    return [this, value](const std::atomic<bool> *cancel) {
      const int now = ++running;
      int most = mostAtOnce.load();
      while (now > most && !mostAtOnce.compare_exchange_weak(most, now)) {
      }
      while (!release && !*cancel)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      if (*cancel)
        ++sawCancel;
      --running;
      return value;
    };
  }
};

} // namespace

class LatestAnswerTest : public QObject {
  Q_OBJECT

private slots:
  void onlyTheNewestQuestionIsAnswered() {
    Gate gate;
    std::vector<int> delivered;
    int settled = 0;
    LatestAnswer<int> answer([&](int value) { delivered.push_back(value); },
                             [&] { ++settled; });
    answer.ask(gate.work(1));
    answer.ask(gate.work(2));
    answer.ask(gate.work(3)); // replaces 2, which never starts
    QVERIFY(answer.busy());
    gate.release = true;
    QTRY_VERIFY(!answer.busy());
    QTRY_COMPARE(settled, 1);
    QCOMPARE(delivered, std::vector<int>{3});
    QCOMPARE(gate.sawCancel.load(), 1); // the first, cancelled by the second
    QCOMPARE(gate.mostAtOnce.load(), 1);
  }

  void aDroppedQuestionDeliversNothing() {
    Gate gate;
    std::vector<int> delivered;
    int settled = 0;
    LatestAnswer<int> answer([&](int value) { delivered.push_back(value); },
                             [&] { ++settled; });
    answer.ask(gate.work(7));
    answer.drop();
    QTRY_VERIFY(!answer.busy());
    QTRY_COMPARE(settled, 1);
    QVERIFY(delivered.empty());
    QCOMPARE(gate.sawCancel.load(), 1);
    // Asked again after the drop: answered.
    gate.release = true;
    answer.ask(gate.work(8));
    QTRY_COMPARE(delivered, std::vector<int>{8});
  }

  void anAnswerThatCameInTimeIsDelivered() {
    Gate gate;
    gate.release = true;
    std::vector<int> delivered;
    LatestAnswer<int> answer([&](int value) { delivered.push_back(value); });
    answer.ask(gate.work(4));
    QTRY_COMPARE(delivered, std::vector<int>{4});
    answer.ask(gate.work(5));
    QTRY_COMPARE(delivered, (std::vector<int>{4, 5}));
  }

  void destroyingItCancelsAndWaits() {
    Gate gate;
    bool delivered = false;
    {
      LatestAnswer<int> answer([&](int) { delivered = true; });
      answer.ask(gate.work(9));
      QTRY_COMPARE(gate.running.load(), 1);
    }
    QCOMPARE(gate.running.load(), 0); // waited for
    QCOMPARE(gate.sawCancel.load(), 1);
    QCoreApplication::processEvents(); // a late signal reaches nothing
    QVERIFY(!delivered);
  }
};

QTEST_MAIN(LatestAnswerTest)
#include "tst_latest_answer.moc"
