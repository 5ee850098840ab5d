#include "core/tune/TuneBundle.h"

#include "core/process/Process.h"
#include "core/run/TensorData.h"
#include "core/service/IreeCommands.h"
#include "core/service/UntrustedFiles.h"
#include "core/tries/BundleTries.h"
#include "core/tries/History.h"
#include "core/tune/ProgramTiming.h"
#include "core/util/Files.h"

#include <system_error>

namespace tilescope::tune {
namespace fs = std::filesystem;
namespace {

constexpr const char *kPrograms[] = {"default", "tuned"};

const std::optional<ProgramRun> &programOf(const TuneResult &result,
                                           std::string_view program) {
  return program == "default" ? result.defaultRun : result.tunedRun;
}

Result<bool> copyInto(const fs::path &from, const fs::path &to) {
  std::error_code error;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
  if (error)
    return Error{"copying " + from.string() +
                 " into the bundle: " + error.message()};
  return true;
}

// programs.sh: each program run once for its outputs, then timed end to
// end, on the checked run's inputs.
std::string programsScript(const run::CheckResult &check,
                           const std::string &driver, int repetitions) {
  std::string inputs;
  for (const std::string &flag : check.inputFlags) {
    const size_t at = flag.find("=@");
    inputs +=
        " " + process::shellQuote(at == std::string::npos
                                      ? flag
                                      : flag.substr(0, at + 2) + "inputs/" +
                                            flag.substr(at + 2));
  }
  std::string outputs;
  for (size_t i = 0; i < check.resultTypes.size(); ++i)
    outputs +=
        " --output=@\"$out/$program-output" + std::to_string(i) + ".bin\"";
  const std::string function =
      process::shellQuote("--function=" + check.function);
  return "#!/bin/sh\n"
         "# The tune's two programs, IREE's configs and the tune's spec, on "
         "this\n"
         "# machine: each run once on the checked run's inputs for its "
         "outputs,\n"
         "# then timed end to end. `tilescope-cli tune --import` reads\n"
         "# results/programs/. TILESCOPE_DEVICE picks a device of the "
         "driver\n"
         "# (cuda://1).\n"
         "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
         "driver=" +
         process::shellQuote(driver) +
         "\n"
         "device=$driver\n"
         "case \"${TILESCOPE_DEVICE:-}\" in \"$driver\"*) "
         "device=$TILESCOPE_DEVICE ;; esac\n"
         "out=\"$here/results/programs\"\n"
         "mkdir -p \"$out\" && cd \"$here/programs\" || exit 1\n"
         "printf '%s %s\\n' \"$device\" \"$(hostname)\" >\"$out/device\"\n"
         "status=0\n"
         "for program in default tuned; do\n"
         "  [ -f \"$program.vmfb\" ] || continue\n"
         "  echo \"$program: run once for its outputs\"\n"
         "  if ! \"$here/tools/iree-run-module\" --module=\"$program.vmfb\" "
         "--device=\"$device\" " +
         function + inputs + outputs +
         " >\"$out/$program.run.log\" 2>&1; then\n"
         "    echo \"$program: iree-run-module failed (results/programs/"
         "$program.run.log)\"; status=1; continue\n"
         "  fi\n"
         "  echo \"$program: timed end to end\"\n"
         "  \"$here/tools/iree-benchmark-module\" --module=\"$program.vmfb\" "
         "--device=\"$device\" " +
         function + inputs + " --benchmark_repetitions=" +
         std::to_string(std::max(1, repetitions)) +
         " --benchmark_min_time=0.2s --benchmark_format=json "
         ">\"$out/$program.benchmark.json\" 2>\"$out/$program.benchmark.log\" "
         "|| { echo \"$program: iree-benchmark-module failed "
         "(results/programs/$program.benchmark.log)\"; status=1; }\n"
         "done\n"
         "exit $status\n";
}

// Both programs into `directory`/programs with their inputs, the spec the
// tuned one was built with, and programs.sh.
Result<bool> writePrograms(const TuneResult &result, const fs::path &directory,
                           int repetitions) {
  const std::optional<ProgramRun> &first = result.defaultRun;
  if (!first || first->check.function.empty() ||
      !fs::exists(first->check.directory / "tested.vmfb"))
    return false; // nothing prepared: the report says why
  const run::CheckResult &check = first->check;
  const fs::path programs = directory / "programs";
  std::error_code error;
  fs::create_directories(programs / "inputs", error);
  if (error)
    return Error{"making " + programs.string() + ": " + error.message()};
  for (const std::string &file : inputFilesOf(check))
    if (auto copied =
            copyInto(check.directory / file, programs / "inputs" / file);
        !copied)
      return copied;
  for (const char *program : kPrograms) {
    const std::optional<ProgramRun> &run = programOf(result, program);
    if (!run || !fs::exists(run->check.directory / "tested.vmfb"))
      continue;
    if (auto copied = copyInto(run->check.directory / "tested.vmfb",
                               programs / (std::string(program) + ".vmfb"));
        !copied)
      return copied;
  }
  if (!result.spec.empty())
    if (auto copied = copyInto(result.spec, programs / "spec.mlir"); !copied)
      return copied;
  const fs::path script = directory / "programs.sh";
  if (auto written = writeFileAtomically(
          script, programsScript(check, tries::driverForTarget(result.target),
                                 repetitions));
      !written)
    return Error{written.error()};
  fs::permissions(script,
                  fs::perms::owner_exec | fs::perms::group_exec |
                      fs::perms::others_exec,
                  fs::perm_options::add, error);
  return true;
}

// A program's time from its benchmark JSON in the bundle's results.
Result<run::TimingStats> programTime(const fs::path &bundle,
                                     const fs::path &results,
                                     const std::string &program) {
  auto text =
      service::readUntrustedFile(results / (program + ".benchmark.json"),
                                 service::kUntrustedFileBytes, bundle);
  if (!text)
    return Error{text.error()};
  auto measurements = service::parseBenchmarkJson(*text);
  if (!measurements)
    return Error{program + ".benchmark.json: " + measurements.error()};
  auto stats = run::timingStats(*measurements);
  if (!stats)
    return Error{program + ".benchmark.json holds no time"};
  return *stats;
}

// "cuda at gpu-node-3": the device and host the bundle's programs.sh
// wrote (results/programs/device), printable characters only; "the
// bundle's machine" where it wrote none.
std::string bundleDevice(const fs::path &bundle, const fs::path &results) {
  auto text = service::readUntrustedFile(results / "device", 256, bundle);
  std::string line = text ? text->substr(0, text->find('\n')) : "";
  std::erase_if(line, [](char c) { return c < 0x20 || c > 0x7e; });
  const size_t space = line.find(' ');
  if (line.empty() || space == 0)
    return "the bundle's machine";
  if (space == std::string::npos || space + 1 == line.size())
    return line.substr(0, space);
  return line.substr(0, space) + " at " + line.substr(space + 1);
}

} // namespace

std::vector<std::string> tuneSweepNames(const TuneResult &result) {
  std::vector<std::string> names;
  for (const DispatchTune &tuned : result.dispatches) {
    if (tuned.kind.empty() || tuned.sameAs)
      continue;
    names.push_back(defaultSweepName(tuned.kind));
    if (!tuned.sweep.empty())
      names.push_back(tuned.sweep);
  }
  return names;
}

Result<fs::path> writeTuneBundle(const tools::IreeInstallation &iree,
                                 const TuneResult &result,
                                 const fs::path &workspace,
                                 const fs::path &directory, int repetitions) {
  // A folder with an earlier bundle (and its results) would mix two runs.
  std::error_code error;
  if (fs::exists(directory, error) && !fs::is_empty(directory, error))
    return Error{directory.string() +
                 " already holds files: give a new folder for the bundle"};
  auto history = tries::History::open(tries::historyFile(workspace));
  if (!history)
    return Error{history.error()};
  std::vector<tries::TryRecord> tries;
  for (const std::string &name : tuneSweepNames(result))
    if (auto swept = tries::compiledTriesOfSweep(*history, name))
      tries.insert(tries.end(), swept->begin(), swept->end());
  if (tries.empty())
    return Error{"the tune compiled no dispatch to time: nothing to bundle"};
  auto written = tries::bundleTries(tries, directory, iree);
  if (!written)
    return Error{written.error()};
  if (auto programs = writePrograms(result, *written, repetitions); !programs)
    return Error{programs.error()};
  return *written;
}

void readTuneBundle(const fs::path &bundle, TuneResult &result) {
  const fs::path results = bundle / "results" / "programs";
  if (!fs::is_directory(results)) {
    result.notes.push_back("the bundle's programs did not run (no " +
                           results.string() +
                           "): run programs.sh beside run.sh there");
    return;
  }
  // The tuned program there was built with the spec the bundle carries;
  // the measured winners may make another.
  bool sameSpec = !result.spec.empty();
  if (sameSpec) {
    auto carried =
        service::readUntrustedFile(bundle / "programs" / "spec.mlir",
                                   service::kUntrustedFileBytes, bundle);
    auto now = readTextFile(result.spec);
    sameSpec = carried && now && *carried == *now;
    if (!sameSpec)
      result.notes.push_back(
          "the bundle's tuned program was built with the spec of the "
          "predicted winners; the measured winners make another: its time "
          "end to end is not this spec's (tune --bundle again to time it)");
  }
  for (const char *program : kPrograms) {
    std::optional<ProgramRun> &run = std::string_view(program) == "default"
                                         ? result.defaultRun
                                         : result.tunedRun;
    if (!run || run->time ||
        (std::string_view(program) == "tuned" && !sameSpec))
      continue;
    auto time = programTime(bundle, results, program);
    if (!time) {
      run->error = "where the bundle ran: " + time.error();
      continue;
    }
    run->time = *time;
    run->error.clear();
    run->check.device = bundleDevice(bundle, results);
  }
  if (!result.defaultRun || !result.tunedRun || !sameSpec)
    return;
  const std::vector<run::TensorType> &types =
      result.defaultRun->check.resultTypes;
  std::vector<run::Tolerance> tolerances;
  std::vector<fs::path> a, b;
  for (size_t i = 0; i < types.size(); ++i) {
    tolerances.push_back(run::defaultTolerance(types[i].element));
    const std::string index = "-output" + std::to_string(i) + ".bin";
    a.push_back(results / ("default" + index));
    b.push_back(results / ("tuned" + index));
  }
  auto agreement = compareOutputFiles(types, tolerances, a, b, bundle);
  if (agreement) {
    result.outputsAgree = agreement->agree;
    result.outputsComparison = agreement->text + " (where the bundle ran)";
  } else {
    result.outputsComparison = agreement.error();
  }
  if (result.defaultRun->time && result.tunedRun->time)
    result.endToEnd =
        tries::compareTimes(*result.defaultRun->time, *result.tunedRun->time);
}

} // namespace tilescope::tune
