// Every try (a compile, a timed run, a checked run) as a row in a local
// SQLite database: the GUI's results table, the CLI's history and compare,
// and a sweep's resume read the same store. Write-ahead logging and a busy
// timeout let several processes add tries at once without losing any.
#pragma once

#include "core/layout/CostModel.h"
#include "core/service/Resources.h"
#include "core/tries/TriedBench.h"
#include "core/tries/TriedCheck.h"
#include "core/tries/TriedCompile.h"
#include "core/tries/TriedConfigs.h"
#include "core/tries/TriedWhere.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::tries {

struct TryRecord {
  long long id = 0;      // given by add()
  std::string createdAt; // UTC, "2026-11-23T18:25:01Z"; set by add() if empty
  std::string kind;      // "compile", "bench", "verify"
  std::string document;  // the file compiled (absolute path)
  std::string op;        // "DISPATCH:OP" when the try concerns one root op
  std::string target;    // "rocm-gfx942", "cuda-sm_90", "llvm-cpu"
  std::string device;    // where it ran ("local-task", "cuda://0"), or ""
  // "ok", "compile-failed", "compiler-crashed", "timed-out", "cancelled",
  // "run-failed", "check-failed", "cannot-run-here", "interrupted",
  // "node-failed" (a cluster node went down under its run).
  std::string outcome;
  std::string summary; // one line, in words
  std::optional<double> medianMicroseconds;
  std::optional<bool> checkPassed;
  std::string directory; // the try folder
  double wallSeconds = 0;
  std::string sweep;     // the sweep it belongs to, if any
  std::string candidate; // its name within the sweep
  // The configs it compiled (kept in the history as details' "configs").
  TriedConfigs configs;
  // Its kernels' resources, where it read them (details' "resources").
  std::optional<service::ResourceReport> resources;
  // The cost model's prediction of its kernel time, with the compiled
  // kernel's resources where read (details' "prediction").
  std::optional<layout::CostPrediction> prediction;
  // Its compile, where it compiled (details' "compile"; a bench row
  // imported from a bundle has none).
  std::optional<TriedCompile> compile;
  // Its timed run, or why it did not run (details' "bench").
  std::optional<TriedBench> bench;
  // The run bundle's results it was imported from, for a row import-results
  // made (details' "imported_from", "run_on", "compiled_in").
  std::optional<BundleOrigin> imported;
  // Why its kernels' resources were not read, where they were not
  // (details' "resources_error").
  std::string resourcesError;
  // The dispatch it compiled alone, for an op of a whole program (details'
  // "dispatch_alone").
  std::optional<DispatchTaken> dispatchAlone;
  // A checked run's program and comparisons (details' "program", "check").
  std::string program;
  std::optional<TriedCheck> check;
  // Where it ran and compiled, where not here (details' "on",
  // "compiled_on", "compile_task").
  TriedWhere where;
  // What another version of Tilescope kept in its details that this one
  // does not know: kept as it was, and written back with the row.
  nlohmann::json details = nlohmann::json::object();
};

// Its details as the history keeps them and `--json` prints them: its
// configs, resources, prediction, compile, timed run, checked run, where it
// was made and the bundle it was imported from, beside the keys of another
// version.
nlohmann::json detailsJson(const TryRecord &record);

// Every outcome a try records (TryRecord::outcome), as `history --outcome`
// lists them.
const std::vector<std::string> &tryOutcomes();

// Whether `outcome` is one of them.
bool isTryOutcome(const std::string &outcome);

// "ok, compile-failed, ..." for a message or a help text.
std::string tryOutcomeList();

struct HistoryFilter {
  std::string document; // exact path
  std::string op;
  std::string kind;
  std::string outcome;
  std::string sweep;
  int limit = 0; // 0: all; newest first
};

class History {
public:
  // Opens (creating if needed) the database file and its schema.
  static Result<History> open(const std::filesystem::path &file);
  History(History &&) noexcept;
  History &operator=(History &&) noexcept;
  ~History();

  const std::filesystem::path &file() const { return path; }

  // Stores a new try; returns its id.
  Result<long long> add(TryRecord record);
  Result<TryRecord> get(long long id) const;
  Result<std::vector<TryRecord>> list(const HistoryFilter &filter = {}) const;

  // Removes the try folders under WORKSPACE/tries that no row names, no
  // Slurm array of the workspace still lists (WORKSPACE/slurm/**.tsv) and
  // whose process (the PID in the folder's name) is gone: a compile, run or
  // sweep killed before it recorded its try. add() does it once per
  // process; returns how many went.
  size_t removeOrphanTryFolders() const;

private:
  struct Connection;
  History(std::filesystem::path path, std::unique_ptr<Connection> connection);
  std::filesystem::path path;
  std::unique_ptr<Connection> connection;
};

// WORKSPACE/history.sqlite
std::filesystem::path historyFile(const std::filesystem::path &workspace);

nlohmann::json toJson(const TryRecord &record);
// One line per try, RFC 4180 quoting; the columns of TryRecord but details.
std::string historyCsv(const std::vector<TryRecord> &records);

} // namespace tilescope::tries
