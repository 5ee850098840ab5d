// The ops IREE's constraint generator crashes on (insert-smt-constraints
// segfaults on some batch matmuls in 3.13), found by asking about halves of
// a part's ops, and remembered: a check of the same executable again (the
// window checks at every edit, most edits elsewhere) leaves them out at once
// instead of finding them by halves again, several iree-opt runs each time.
#pragma once

#include "core/util/Result.h"

#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::service {

// Asking IREE about a group of ops (indices into the caller's ops): the
// crash in words where it crashed (for a group of one, with the command that
// reproduces it), nullopt where it did not, an Error where it could not ask.
using CrashProbe = std::function<Result<std::optional<std::string>>(
    const std::vector<size_t> &group)>;

// The ops of `asked` that crash on their own, with why, found by halves:
// a group that crashes is split until each crashing op stands alone.
Result<std::map<size_t, std::string>>
isolateCrashes(const std::vector<size_t> &asked, const CrashProbe &probe);

// Why IREE crashed on an op, by a key the caller makes of what IREE was
// given for it (its executable's text and the IREE that crashed): shared by
// the process's threads, and the oldest forgotten past kMostKept.
class KnownCrashes {
public:
  static constexpr size_t kMostKept = 256;
  static KnownCrashes &shared();

  std::optional<std::string> find(const std::string &key) const;
  void add(const std::string &key, const std::string &why);
  size_t size() const;
  // How many times find() knew the key: ops left out without asking IREE.
  size_t recalled() const;

private:
  mutable std::mutex mutex;
  mutable size_t found = 0;
  std::map<std::string, std::pair<std::string, unsigned long long>> known;
  unsigned long long added = 0;
};

} // namespace tilescope::service
