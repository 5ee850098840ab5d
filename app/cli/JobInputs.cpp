#include "app/cli/JobInputs.h"

#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "core/edit/RootOpContext.h"
#include "core/process/Workspace.h"
#include "core/tries/TryJob.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace tilescope::cli {

const QCommandLineOption kTargetOption{
    "target",
    "Compile for TARGET: gfx942, rocm:gfx1100, sm_90, cuda:sm_80, llvm-cpu. "
    "A dispatch benchmark carries its own target and needs none.",
    "TARGET"};
const QCommandLineOption kWorkspaceOption{
    "workspace",
    "Where tries and the history live (default: $TILESCOPE_WORKSPACE, else "
    "~/.local/share/tilescope).",
    "DIR"};
// -o/--output as every command that writes names it; --out as it was.
const QCommandLineOption kTryFolderOption{
    {"o", "output", "out"},
    "The try folder (default: a new one under the workspace's tries/).",
    "DIR"};
const QCommandLineOption kTimeoutOption{
    "timeout", "Stop each step after SECONDS (default 300).", "SECONDS"};
const QCommandLineOption kDeviceOption{
    "device", "Run on DEVICE (local-task, hip://0, cuda://0).", "DEVICE"};
const QCommandLineOption kOnOption{
    "on",
    "Where the timed run happens: local (default); ssh:HOST, a GPU host "
    "reached with your own ssh (a Host of ~/.ssh/config or user@name; keys "
    "or an agent, never a password; $TILESCOPE_SSH names another ssh "
    "command), the runtime tools once per host into ~/.cache/tilescope "
    "there; or slurm:PARTITION, a Slurm cluster's partition (sbatch, a job "
    "array for a sweep, one GPU per task for a GPU module; the workspace on "
    "a filesystem the nodes share; $TILESCOPE_SBATCH_OPTIONS adds sbatch "
    "options). Compiling stays here; the module travels as a run bundle. "
    "Default: the workspace's settings.json {\"on\": PLACE}, else local.",
    "PLACE"};

Result<run::RunPlace> placeOf(const QCommandLineParser &parser) {
  auto place = run::runPlaceOr(parser.value(kOnOption).toStdString(),
                               workspaceOf(parser));
  if (!place)
    return Error{"--on " + place.error()};
  return place;
}

std::filesystem::path workspaceOf(const QCommandLineParser &parser) {
  return workbenchOf(parser).workspace();
}

Result<document::Document> openJobFile(const QCommandLineParser &parser,
                                       int &exitCode) {
  const std::string path = parser.positionalArguments().front().toStdString();
  auto document = openDocument(path, workbenchOf(parser), exitCode);
  if (document)
    document->path = std::filesystem::absolute(path);
  return document;
}

Result<std::filesystem::path> tryFolderOf(const QCommandLineParser &parser) {
  if (parser.isSet(kTryFolderOption))
    return std::filesystem::path(parser.value(kTryFolderOption).toStdString());
  return process::newTryDirectory(workspaceOf(parser));
}

Result<std::chrono::milliseconds> timeoutOf(const QCommandLineParser &parser) {
  // The workbench's rule for every job's step: a number of seconds, more
  // than 0, at most a week; 300 s when not given.
  return workbench::stepLimit(timeoutSecondsOf(parser), "--timeout");
}

double timeoutSecondsOf(const QCommandLineParser &parser, double fallback) {
  if (!parser.isSet(kTimeoutOption))
    return fallback;
  bool ok = false;
  const double seconds = parser.value(kTimeoutOption).toDouble(&ok);
  return ok ? seconds : std::nan("");
}

Result<long long> integerOf(const QCommandLineParser &parser,
                            const QCommandLineOption &option,
                            long long fallback) {
  if (!parser.isSet(option))
    return fallback;
  bool ok = false;
  const long long value = parser.value(option).toLongLong(&ok);
  if (!ok)
    return Error{"--" + option.names().front().toStdString() +
                 ": expected an integer, not '" +
                 parser.value(option).toStdString() + "'"};
  return value;
}

// The root op a try is about: --op, or a whole program's one dispatch
// (its entry point takes inputs a timing run does not have: it is tried
// alone, as IREE takes it out); of several, a timing names one. An Error is
// the usage message.
Result<std::optional<edit::OpRef>> jobOp(const QCommandLineParser &parser,
                                         const document::Document &document,
                                         tries::TryStage stage,
                                         const std::string &path) {
  if (parser.isSet(kOpOption)) {
    auto ref = edit::findOp(document, parser.value(kOpOption).toStdString());
    if (!ref)
      return Error{path + ": --op: " + ref.error()};
    return std::optional<edit::OpRef>(*ref);
  }
  if (!service::hasStreamHost(document.text))
    return std::optional<edit::OpRef>();
  if (document.dispatches.size() == 1)
    return std::optional<edit::OpRef>(
        edit::OpRef{0, edit::rootOpIndex(document.dispatches.front())});
  if (stage == tries::TryStage::Bench)
    return Error{path + " is a program of " +
                 std::to_string(document.dispatches.size()) +
                 " dispatches: name the one to time with --op D:O "
                 "('tilescope-cli dispatches " +
                 path + "' lists them)"};
  return std::optional<edit::OpRef>();
}

int refused(const std::string &command, const workbench::Refusal &refusal) {
  std::cerr << "tilescope-cli " << command << ": " << refusal.message << "\n";
  switch (refusal.kind) {
  case workbench::Refusal::Kind::Choice:
    return kExitUsage;
  case workbench::Refusal::Kind::NoIree:
    return kExitIreeUnavailable;
  case workbench::Refusal::Kind::Input:
    break;
  }
  return kExitBadInput;
}

Result<int> countOf(const QCommandLineParser &parser,
                    const QCommandLineOption &option, int fallback, int low,
                    int high) {
  if (!parser.isSet(option))
    return fallback;
  bool ok = false;
  const int value = parser.value(option).toInt(&ok);
  if (!ok || value < low || value > high)
    return Error{"--" + option.names().front().toStdString() +
                 ": expected a count from " + std::to_string(low) + " to " +
                 std::to_string(high)};
  return value;
}

Result<std::optional<service::CompileTarget>>
targetOf(const QCommandLineParser &parser) {
  if (!parser.isSet(kTargetOption))
    return std::optional<service::CompileTarget>();
  auto target =
      service::compileTarget(parser.value(kTargetOption).toStdString());
  if (!target)
    return Error{"--target: " + target.error()};
  return std::optional<service::CompileTarget>(*target);
}

Result<JobArguments> jobArguments(const QCommandLineParser &parser) {
  if (parser.positionalArguments().size() != 1)
    return Error{"expected one FILE"};
  auto target = targetOf(parser);
  if (!target)
    return Error{target.error()};
  return JobArguments{parser.positionalArguments().front().toStdString(),
                      std::move(*target)};
}

int usageError(const std::string &command, const std::string &message) {
  std::cerr << "tilescope-cli " << command << ": " << message << "\n";
  return kExitUsage;
}

std::optional<long long> recordTry(const QCommandLineParser &parser,
                                   tries::TryRecord record, bool quiet) {
  const std::filesystem::path workspace = workspaceOf(parser);
  auto id = tries::recordTry(workspace, std::move(record));
  if (!id) {
    std::cerr << "warning: not recorded: " << id.error() << "\n";
    return std::nullopt;
  }
  if (!quiet)
    std::cerr << "recorded as try " << *id << " in "
              << tries::historyFile(workspace).string() << "\n";
  return *id;
}

TerminalProgress::TerminalProgress(bool enabled, bool linesElsewhere)
    : enabled(enabled && ::isatty(STDERR_FILENO)),
      lines(enabled && linesElsewhere && !::isatty(STDERR_FILENO)),
      started(std::chrono::steady_clock::now()) {
  if (this->enabled)
    ticker = std::thread([this] { tick(); });
}

TerminalProgress::~TerminalProgress() { done(); }

void TerminalProgress::done() {
  stopping = true;
  if (ticker.joinable())
    ticker.join();
  if (shown)
    std::cerr << "\r\033[K" << std::flush;
  shown = false;
}

void TerminalProgress::step(const std::string &what) {
  std::lock_guard lock(mutex);
  if (lines && what != current)
    std::cerr << "["
              << std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::steady_clock::now() - started)
                     .count()
              << " s] " << what << "\n"
              << std::flush;
  current = what;
}

void TerminalProgress::tick() {
  using namespace std::chrono;
  while (!stopping) {
    std::this_thread::sleep_for(milliseconds(200));
    const auto elapsed = steady_clock::now() - started;
    if (elapsed < seconds(1))
      continue;
    std::lock_guard lock(mutex);
    std::cerr << "\r\033[K" << current << " ("
              << duration_cast<seconds>(elapsed).count() << " s)" << std::flush;
    shown = true;
  }
}

} // namespace tilescope::cli
