// What the commands that compile and run share: the --target, --workspace,
// --out and --timeout options, a try folder, a progress line on a terminal,
// and the record each try leaves in the history.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/run/RemoteRun.h"
#include "core/service/IreeCommands.h"
#include "core/tries/History.h"
#include "core/tries/TryJob.h"
#include "core/util/Result.h"
#include "core/workbench/Jobs.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace tilescope::cli {

extern const QCommandLineOption kTargetOption;
extern const QCommandLineOption kWorkspaceOption;
extern const QCommandLineOption kTryFolderOption;
extern const QCommandLineOption kTimeoutOption;
extern const QCommandLineOption kDeviceOption;
extern const QCommandLineOption kOnOption;
// --on: here, or a host over ssh.
Result<run::RunPlace> placeOf(const QCommandLineParser &parser);

std::filesystem::path workspaceOf(const QCommandLineParser &parser);
// The command's FILE read and parsed by IREE in the worker, its path made
// absolute (what the history records tries under); `exitCode` says why not.
Result<document::Document> openJobFile(const QCommandLineParser &parser,
                                       int &exitCode);

// The root op a try is about: --op, or a whole program's one dispatch
// (its entry point takes inputs a timing run does not have: it is tried
// alone, as IREE takes it out); of several, a timing names one. An Error is
// the usage message.
Result<std::optional<edit::OpRef>> jobOp(const QCommandLineParser &parser,
                                         const document::Document &document,
                                         tries::TryStage stage,
                                         const std::string &path);

// --out, or a new folder under the workspace.
Result<std::filesystem::path> tryFolderOf(const QCommandLineParser &parser);
// --timeout as a job step's limit (300 s when not given), or why it is
// none (not a number, 0 or less, past a week).
Result<std::chrono::milliseconds> timeoutOf(const QCommandLineParser &parser);
// --timeout as given, for a job's choice to check (NaN where it is not a
// number; `fallback` seconds when not given).
double timeoutSecondsOf(const QCommandLineParser &parser,
                        double fallback = 300);
// An integer option's value as given, for a job's choice to check;
// `fallback` when not given; an Error when it is not an integer.
Result<long long> integerOf(const QCommandLineParser &parser,
                            const QCommandLineOption &option,
                            long long fallback);
// A job's refusal (workbench::Refusal) on stderr as "tilescope-cli COMMAND:
// MESSAGE"; its exit code (usage, IREE unavailable, bad input).
int refused(const std::string &command, const workbench::Refusal &refusal);
// A count option's value from `low` to `high`; `fallback` when not given.
Result<int> countOf(const QCommandLineParser &parser,
                    const QCommandLineOption &option, int fallback, int low,
                    int high);
// --target when given (an Error for a bad one), else nullopt.
Result<std::optional<service::CompileTarget>>
targetOf(const QCommandLineParser &parser);

// What every job command checks first, once its options are parsed: one
// FILE and a readable --target. An Error is the usage message.
struct JobArguments {
  std::string path;
  std::optional<service::CompileTarget> target;
};
Result<JobArguments> jobArguments(const QCommandLineParser &parser);
// "tilescope-cli COMMAND: MESSAGE" on stderr; the usage exit code.
int usageError(const std::string &command, const std::string &message);

// Adds the try to the workspace's history; says where on stderr unless
// quiet. A history that cannot be written is a warning, not a failure.
std::optional<long long> recordTry(const QCommandLineParser &parser,
                                   tries::TryRecord record, bool quiet);

// "step (12 s)" rewritten once a second on stderr while a job runs, from the
// first second on, only when stderr is a terminal.
class TerminalProgress {
public:
  // With `linesElsewhere`, a stderr that is no terminal (a log, CI) gets
  // each new step as a line of its own, with the seconds so far: a long
  // job (a tune) is never silent for minutes.
  explicit TerminalProgress(bool enabled, bool linesElsewhere = false);
  ~TerminalProgress();
  void step(const std::string &what);
  // Stops the line and clears it, before results are printed.
  void done();

private:
  void tick();
  bool enabled;
  bool lines = false; // stderr is no terminal: a line per step
  std::mutex mutex;
  std::string current;
  std::chrono::steady_clock::time_point started;
  bool shown = false;
  std::atomic<bool> stopping{false};
  std::thread ticker;
};

} // namespace tilescope::cli
