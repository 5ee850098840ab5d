#include "core/service/CompileJob.h"

#include "core/util/Files.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <regex>
#include <sstream>

namespace tilescope::service {
namespace {

namespace fs = std::filesystem;

constexpr const char *kInputName = "input.mlir";

// The first quoted word after `marker` in `text`: the backend of a
// #hal.executable.target<"rocm", ...> or the device of #hal.device.target<...>.
std::vector<std::string> quotedAfter(const std::string &text,
                                     const std::string &marker) {
  std::vector<std::string> words;
  for (size_t at = text.find(marker); at != std::string::npos;
       at = text.find(marker, at + 1)) {
    const size_t open = text.find('"', at + marker.size());
    const size_t close =
        open == std::string::npos ? open : text.find('"', open + 1);
    if (close == std::string::npos || open > at + marker.size() + 2)
      continue;
    words.push_back(text.substr(open + 1, close - open - 1));
  }
  return words;
}

void addUnique(std::vector<std::string> &list, const std::string &value) {
  if (std::find(list.begin(), list.end(), value) == list.end())
    list.push_back(value);
}

// The backend a HAL device compiles for.
std::string backendOfDevice(const std::string &device) {
  if (device == "hip" || device == "rocm" || device == "amdgpu")
    return "rocm";
  if (device == "local")
    return "llvm-cpu";
  return device;
}

std::string seconds(std::chrono::milliseconds elapsed) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", elapsed.count() / 1000.0);
  return text;
}

std::string signalName(int signal) {
  const char *abbreviation = ::sigabbrev_np(signal);
  return abbreviation ? std::string("SIG") + abbreviation
                      : "signal " + std::to_string(signal);
}

bool isWordCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Whether `word` occurs in `text` as a whole word.
bool containsWord(const std::string &text, const std::string &word) {
  for (size_t at = text.find(word); at != std::string::npos;
       at = text.find(word, at + 1)) {
    const bool before = at == 0 || !isWordCharacter(text[at - 1]);
    const size_t end = at + word.size();
    const bool after = end >= text.size() || !isWordCharacter(text[end]);
    if (before && after)
      return true;
  }
  return false;
}

// The keys of a config attribute's text ("workgroup = [...]" gives
// "workgroup"), longest first so "partial_reduction" wins over "reduction".
std::vector<std::string> attributeKeys(const std::string &text) {
  std::vector<std::string> keys;
  static const std::regex key(R"(([A-Za-z_][A-Za-z0-9_]*)\s*=)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), key);
       it != std::sregex_iterator(); ++it)
    addUnique(keys, (*it)[1].str());
  std::stable_sort(keys.begin(), keys.end(),
                   [](const std::string &a, const std::string &b) {
                     return a.size() > b.size();
                   });
  return keys;
}

} // namespace

std::vector<fs::path> CompileArtifacts::assembly() const {
  std::vector<fs::path> files;
  for (const fs::path &folder : {intermediates, binaries}) {
    std::error_code error;
    if (!fs::is_directory(folder, error))
      continue;
    for (const auto &entry : fs::directory_iterator(folder, error)) {
      const std::string extension = entry.path().extension().string();
      if (extension == ".rocmasm" || extension == ".ptx" || extension == ".s" ||
          extension == ".sass")
        files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string CompileDiagnostic::toString() const {
  std::string text = diagnostic.toString();
  if (!field.empty()) {
    const size_t endOfLine = text.find('\n');
    text.insert(endOfLine == std::string::npos ? text.size() : endOfLine,
                " [config field: " + field + "]");
  }
  return text;
}

bool CompileJobResult::builtNoKernel() const {
  std::error_code error;
  if (!expectsKernel || !process.succeeded() ||
      !fs::exists(artifacts.module, error))
    return false;
  return !fs::is_directory(artifacts.binaries, error) ||
         fs::is_empty(artifacts.binaries, error);
}

bool CompileJobResult::succeeded() const {
  std::error_code error;
  return process.succeeded() && fs::exists(artifacts.module, error) &&
         !builtNoKernel();
}

std::string CompileJobResult::summary() const {
  const std::string after = " after " + seconds(process.elapsed);
  switch (process.outcome) {
  case process::ProcessResult::Outcome::FailedToStart:
    return "iree-compile " + process.describe();
  case process::ProcessResult::Outcome::Cancelled:
    return "iree-compile was cancelled" + after;
  case process::ProcessResult::Outcome::TimedOut:
    return "iree-compile " + process.describe() +
           " (the time limit; the config may make the compiler hang)";
  case process::ProcessResult::Outcome::Signaled: {
    std::string text =
        "iree-compile crashed with " + signalName(process.signal) + after;
    std::error_code error;
    if (fs::exists(artifacts.reproducer, error))
      text += "; reproducer saved to " + artifacts.reproducer.string();
    else
      text += "; its input is saved as " + artifacts.input.string();
    return text;
  }
  case process::ProcessResult::Outcome::Exited:
    break;
  }
  if (succeeded())
    return "compiled in " + seconds(process.elapsed) + " to " +
           artifacts.module.string();
  if (builtNoKernel())
    return "iree-compile exited well" + after + " but built no kernel (" +
           artifacts.binaries.string() +
           " is empty): IREE compiled the file from a phase its dispatches "
           "are not in";
  std::string text = "iree-compile failed (" + process.describe() + ")" + after;
  for (const CompileDiagnostic &d : diagnostics)
    if (d.diagnostic.severity == document::Severity::Error) {
      const std::string first = d.toString();
      return text + ": " + first.substr(0, first.find('\n'));
    }
  return text + "; see " + artifacts.log.string();
}

std::vector<std::string> documentBackends(const document::Document &document) {
  std::vector<std::string> backends;
  for (const document::Dispatch &dispatch : document.dispatches)
    for (const std::string &backend :
         quotedAfter(dispatch.target, "#hal.executable.target<"))
      addUnique(backends, backend);
  // A source program names its devices instead (hal.device.targets).
  for (const std::string &device :
       quotedAfter(document.text, "#hal.device.target<"))
    addUnique(backends, backendOfDevice(device));
  return backends;
}

namespace {

// The compile's command and the backend it compiles for, from one reading
// of the file's targets.
struct CompilePlan {
  process::ProcessSpec spec;
  std::string backend;
};

Result<CompilePlan> planCompile(const tools::IreeInstallation &iree,
                                const CompileJobRequest &request) {
  if (!request.document)
    return Error{"nothing to compile: no document"};
  const std::string name = request.document->path.empty()
                               ? std::string("the document")
                               : request.document->path.string();
  const std::vector<std::string> carried = documentBackends(*request.document);
  if (!request.target && carried.empty())
    return Error{name + " carries no target: choose one (gfx942, sm_90 or "
                        "llvm-cpu)"};
  if (request.target && !carried.empty() &&
      std::find(carried.begin(), carried.end(), request.target->backend) ==
          carried.end())
    return Error{name + " is compiled for " + carried.front() +
                 " (its target is part of the file), not for " +
                 request.target->backend + ": drop the target or choose a " +
                 carried.front() + " one"};

  CompileRequest compile;
  compile.input = kInputName;
  compile.output = "module.vmfb";
  compile.inputCarriesTarget = !carried.empty();
  if (request.target)
    compile.target = *request.target;
  compile.extraFlags = {
      "--iree-hal-dump-executable-intermediates-to=intermediates",
      "--iree-hal-dump-executable-binaries-to=binaries",
      "--mlir-pass-pipeline-crash-reproducer=crash-reproducer.mlir"};
  // A configured program, or a benchmark of configured executables,
  // resumes where configuring stopped (compiled from the input phase, IREE
  // builds a program into a module with no kernel, and some benchmarks into
  // a kernel that ignores its config).
  if (auto phase = compilePhaseOf(request.document->text))
    compile.extraFlags.push_back("--compile-from=" + *phase);
  compile.extraFlags.insert(compile.extraFlags.end(),
                            request.extraFlags.begin(),
                            request.extraFlags.end());
  auto spec = compileCommand(iree, compile);
  if (!spec)
    return Error{spec.error()};
  spec->workingDirectory = request.directory;
  spec->timeout = request.timeout;
  spec->cancel = request.cancel;
  spec->onOutput = request.onOutput;
  return CompilePlan{std::move(*spec), request.target ? request.target->backend
                                                      : carried.front()};
}

} // namespace

Result<process::ProcessSpec>
compileJobCommand(const tools::IreeInstallation &iree,
                  const CompileJobRequest &request) {
  auto plan = planCompile(iree, request);
  if (!plan)
    return Error{plan.error()};
  return std::move(plan->spec);
}

CompileArtifacts compileArtifactsIn(const fs::path &directory) {
  CompileArtifacts artifacts;
  artifacts.directory = directory;
  artifacts.input = directory / kInputName;
  artifacts.command = directory / "command.sh";
  artifacts.log = directory / "compile.log";
  artifacts.module = directory / "module.vmfb";
  artifacts.intermediates = directory / "intermediates";
  artifacts.binaries = directory / "binaries";
  artifacts.reproducer = directory / "crash-reproducer.mlir";
  return artifacts;
}

Result<CompileJobResult> prepareCompile(const tools::IreeInstallation &iree,
                                        const CompileJobRequest &request) {
  auto plan = planCompile(iree, request);
  if (!plan)
    return Error{plan.error()};
  const fs::path &directory = request.directory;
  std::error_code error;
  fs::create_directories(directory, error);
  if (error)
    return Error{"cannot create the try folder " + directory.string() + ": " +
                 error.message()};
  if (fs::exists(directory / kInputName, error))
    return Error{directory.string() + " already holds a try"};

  CompileJobResult result;
  result.artifacts = compileArtifactsIn(directory);
  const CompileArtifacts &artifacts = result.artifacts;
  result.backend = plan->backend;
  result.expectsKernel = !request.document->dispatches.empty();
  result.spec = std::move(plan->spec);

  if (auto written =
          writeFileAtomically(artifacts.input, request.document->text);
      !written)
    return Error{written.error()};
  if (auto written = writeFileAtomically(
          artifacts.command, "#!/bin/sh\n" + result.spec.shellCommand() + "\n");
      !written)
    return Error{written.error()};
  fs::permissions(artifacts.command, fs::perms::owner_exec,
                  fs::perm_options::add, error);
  return result;
}

void finishCompile(CompileJobResult &result, const document::Document &document,
                   process::ProcessResult process) {
  result.process = std::move(process);
  const std::string hung =
      result.process.stalledRuns > 0
          ? "[tilescope] iree-compile hung (no CPU for a minute) and was run "
            "once more: IREE 3.13 can deadlock loading a tuning spec "
            "(docs/iree-3.13.md)\n"
          : "";
  (void)writeFileAtomically(result.artifacts.log,
                            hung + result.process.standardOutput +
                                result.process.standardError);
  const std::string display =
      document.path.empty() ? std::string(kInputName) : document.path.string();
  result.diagnostics = placeDiagnostics(
      parseToolDiagnostics(result.process.standardError, kInputName, display),
      document);
}

Result<CompileJobResult> compileDocument(const tools::IreeInstallation &iree,
                                         const CompileJobRequest &request) {
  auto prepared = prepareCompile(iree, request);
  if (!prepared)
    return Error{prepared.error()};
  process::ProcessResult process = runProcess(prepared->spec);
  finishCompile(*prepared, *request.document, std::move(process));
  return prepared;
}

std::vector<document::Diagnostic>
parseToolDiagnostics(std::string_view output, const std::string &inputName,
                     const std::string &displayName) {
  static const std::regex header(
      R"(^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*)$)");
  std::vector<document::Diagnostic> diagnostics;
  std::istringstream lines{std::string(output)};
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (!std::regex_match(line, match, header))
      continue;
    document::Diagnostic d;
    const std::string file = match[1].str();
    const bool isInput =
        file == inputName ||
        (file.size() > inputName.size() &&
         file.compare(file.size() - inputName.size() - 1, std::string::npos,
                      "/" + inputName) == 0);
    d.file = isInput ? displayName : file;
    // A location's numbers as the compiler printed them; past an int (an
    // op's own loc("x:99999999999:1") printed raw) none, not a throw.
    auto number = [](const std::string &digits) {
      const std::optional<int64_t> n = parseInt64(digits);
      return n && *n <= INT_MAX ? static_cast<int>(*n) : 0;
    };
    d.line = number(match[2].str());
    d.column = number(match[3].str());
    const std::string severity = match[4].str();
    d.severity = severity == "error"     ? document::Severity::Error
                 : severity == "warning" ? document::Severity::Warning
                 : severity == "note"    ? document::Severity::Note
                                         : document::Severity::Remark;
    // Notes that print the current op, and messages that print a whole
    // target attribute, are cut: the log keeps them whole.
    d.message = match[5].str();
    if (d.message.size() > 240)
      d.message = d.message.substr(0, 240) + "...";
    if (d.severity == document::Severity::Note && !diagnostics.empty())
      diagnostics.back().notes.push_back(std::move(d));
    else
      diagnostics.push_back(std::move(d));
  }
  return diagnostics;
}

std::vector<CompileDiagnostic>
placeDiagnostics(const std::vector<document::Diagnostic> &diagnostics,
                 const document::Document &document) {
  std::vector<CompileDiagnostic> placed;
  for (const document::Diagnostic &diagnostic : diagnostics) {
    CompileDiagnostic p{diagnostic, "", -1, ""};
    // The dispatch whose function starts last at or before the line.
    const document::Dispatch *holder = nullptr;
    for (const document::Dispatch &dispatch : document.dispatches)
      if (dispatch.line <= diagnostic.line &&
          (!holder || dispatch.line >= holder->line))
        holder = &dispatch;
    if (holder && diagnostic.line > 0) {
      p.dispatch = holder->name;
      for (size_t k = 0; k < holder->rootOps.size(); ++k)
        if (holder->rootOps[k].line == diagnostic.line)
          p.rootOp = static_cast<int>(k);
      // A field named in the message: of the root op's configs, or of
      // translation_info when the diagnostic is on the function.
      std::string configs = holder->translationInfo;
      if (p.rootOp >= 0)
        configs +=
            holder->rootOps[static_cast<size_t>(p.rootOp)].loweringConfig +
            holder->rootOps[static_cast<size_t>(p.rootOp)].compilationInfo;
      // Only the message itself: notes print the op, config and all.
      const std::string &message = diagnostic.message;
      for (const std::string &key : attributeKeys(configs))
        if (key != "pipeline" && containsWord(message, key)) {
          p.field = key;
          break;
        }
      // What IREE's messages say in other words.
      static const std::pair<const char *, const char *> kPhrases[] = {
          {"inner_tiled", "mma_kind"},
          {"workgroup size", "workgroup_size"},
          {"subgroup size", "subgroup_size"},
      };
      for (const auto &[phrase, field] : kPhrases)
        if (p.field.empty() && message.find(phrase) != std::string::npos &&
            configs.find(field) != std::string::npos)
          p.field = field;
    }
    placed.push_back(std::move(p));
  }
  return placed;
}

} // namespace tilescope::service
