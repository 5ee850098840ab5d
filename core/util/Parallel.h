// Runs a job per index on a few threads: each thread takes the next index
// until none is left or the caller cancels.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace tilescope {

// each(i) for i in [0, count), indices taken in order by up to `threads`
// threads (0 or less: the cores here); no new index is taken once `cancel`
// is set. Returns when every started job has finished.
inline void parallelFor(size_t count, int threads,
                        const std::function<void(size_t)> &each,
                        const std::atomic<bool> *cancel = nullptr) {
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t wanted = threads > 0 ? static_cast<size_t>(threads) : cores;
  const size_t used = std::min(wanted, std::max<size_t>(count, 1));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (;;) {
      if (cancel && cancel->load())
        return;
      const size_t i = next++;
      if (i >= count)
        return;
      each(i);
    }
  };
  std::vector<std::thread> workers;
  for (size_t i = 0; i < used; ++i)
    workers.emplace_back(work);
  for (std::thread &worker : workers)
    worker.join();
}

} // namespace tilescope
