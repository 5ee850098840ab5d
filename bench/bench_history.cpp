// The history under concurrent writers: N processes (a sweep's finishing
// tries, several Tilescopes, a cluster's results being taken in) each
// adding R tries to one history file at once, through History::add (SQLite
// in WAL mode, a busy timeout, one transaction a row). Prints the rows a
// second, the slowest writer, and whether every row is there.
#include "core/tries/History.h"
#include "core/util/Files.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace tilescope;

int main() {
  auto folder = TemporaryDirectory::create("tilescope-bench-history");
  if (!folder) {
    std::fprintf(stderr, "bench_history: %s\n", folder.error().c_str());
    return 1;
  }
  const std::filesystem::path file = folder->file("history.sqlite");
  for (const int writers : {1, 4, 16, 64}) {
    const int rows = 3200 / writers;
    std::filesystem::remove(file);
    std::filesystem::remove(file.string() + "-wal");
    std::filesystem::remove(file.string() + "-shm");
    const auto start = std::chrono::steady_clock::now();
    std::vector<pid_t> children;
    for (int w = 0; w < writers; ++w) {
      const pid_t pid = ::fork();
      if (pid == 0) {
        auto history = tries::History::open(file);
        int failed = 0;
        for (int r = 0; r < rows && history; ++r) {
          tries::TryRecord record;
          record.kind = "bench";
          record.document = "writer-" + std::to_string(w);
          record.outcome = "ok";
          record.summary = "row " + std::to_string(r);
          record.medianMicroseconds = r;
          record.details = {{"padding", std::string(2000, 'x')}};
          failed += history->add(record) ? 0 : 1;
        }
        ::_exit(history ? (failed > 0 ? 2 : 0) : 3);
      }
      children.push_back(pid);
    }
    int failures = 0;
    for (pid_t pid : children) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      failures += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    auto history = tries::History::open(file);
    size_t kept = 0;
    if (history)
      if (auto all = history->list())
        kept = all->size();
    std::printf("bench_history: %2d writers x %4d tries (2 kB of details "
                "each): %5zu kept of %d, %.2f s, %.0f tries/s%s\n",
                writers, rows, kept, writers * rows, seconds,
                writers * rows / seconds, failures ? " (a writer failed)" : "");
  }
  return 0;
}
