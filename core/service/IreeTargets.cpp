#include "core/service/IreeTargets.h"

#include "core/config/configs/TargetAttribute.h"
#include "core/util/Brackets.h"

#include <chrono>
#include <map>
#include <mutex>
#include <tuple>

namespace tilescope::service {
namespace {

constexpr const char *kNoTarget = "IREE knows no GPU target '";

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The first #hal.executable.target<...> in IREE's output, brackets matched
// (quoted strings skipped), or empty.
std::string firstExecutableTarget(const std::string &text) {
  const std::string opening = "#hal.executable.target<";
  const size_t start = text.find(opening);
  if (start == std::string::npos)
    return {};
  const size_t close = closingBracket(text, start + opening.size() - 1, "<>");
  return close == std::string::npos ? std::string()
                                    : text.substr(start, close + 1 - start);
}

// IREE's own words for a failed question: its first "error:" line.
std::string errorLine(const process::ProcessResult &result) {
  const std::string &text = result.standardError;
  const size_t at = text.find("error: ");
  if (at == std::string::npos)
    return "iree-compile " + result.describe();
  const size_t end = text.find('\n', at);
  return text.substr(at + 7, end == std::string::npos ? end : end - at - 7);
}

Result<IreeTarget> askOnBackend(const tools::IreeInstallation &iree,
                                std::string_view name,
                                std::string_view backend) {
  auto spec = targetQueryCommand(iree, name, backend);
  if (!spec)
    return Error{spec.error()};
  const process::ProcessResult result = runProcess(*spec);
  if (!result.succeeded())
    return Error{errorLine(result)};
  const std::string executableTarget =
      firstExecutableTarget(result.standardOutput);
  if (executableTarget.empty())
    return Error{"iree-compile printed no executable target for '" +
                 std::string(name) + "'"};
  if (!config::namesGpuTarget(executableTarget))
    return Error{"IREE knows '" + std::string(name) + "' on " +
                 std::string(backend) +
                 " but states no GPU target facts for it (no #iree_gpu.target "
                 "in " +
                 executableTarget + ")"};
  auto target = config::gpuTargetFromText(executableTarget);
  if (!target)
    return Error{"IREE's target for '" + std::string(name) +
                 "' could not be read: " + target.error()};
  target->source = "IREE (" + spec->shellCommand() + ")";
  return IreeTarget{std::move(*target), spec->shellCommand()};
}

} // namespace

Result<process::ProcessSpec>
targetQueryCommand(const tools::IreeInstallation &iree, std::string_view name,
                   std::string_view backend) {
  auto tool = iree.tool(tools::kIreeCompile);
  if (!tool)
    return Error{tool.error()};
  if (backend != "rocm" && backend != "cuda")
    return Error{"target facts are asked on rocm or cuda, not \"" +
                 std::string(backend) + "\""};
  if (name.empty() || name.find_first_of(" \t\n=") != std::string_view::npos)
    return Error{"'" + std::string(name) + "' is not a target name"};
  process::ProcessSpec spec;
  spec.program = *tool;
  // An empty module: IREE assigns the device and prints its target.
  spec.arguments = {"/dev/null"};
  if (backend == "rocm")
    spec.arguments.insert(spec.arguments.end(),
                          {"--iree-hal-target-device=hip",
                           "--iree-rocm-target=" + std::string(name)});
  else
    spec.arguments.insert(spec.arguments.end(),
                          {"--iree-hal-target-device=cuda",
                           "--iree-cuda-target=" + std::string(name)});
  spec.arguments.push_back("--compile-to=preprocessing");
  spec.timeout = std::chrono::seconds(60);
  return spec;
}

Result<IreeTarget> ireeTarget(const tools::IreeInstallation &iree,
                              std::string_view name) {
  using Key = std::tuple<std::string, std::string>;
  static std::mutex mutex;
  static std::map<Key, Result<IreeTarget>> answers;
  const Key key{iree.compilerLibrary.string(), std::string(name)};
  {
    std::lock_guard lock(mutex);
    if (auto found = answers.find(key); found != answers.end())
      return found->second;
  }

  const bool nvidiaFirst = startsWith(name, "sm_");
  const std::string_view first = nvidiaFirst ? "cuda" : "rocm";
  const std::string_view second = nvidiaFirst ? "rocm" : "cuda";
  Result<IreeTarget> answer = askOnBackend(iree, name, first);
  if (!answer) {
    const std::string firstError = answer.error();
    Result<IreeTarget> other = askOnBackend(iree, name, second);
    // "Unknown ROCM target" on one backend says nothing about the other; a
    // name IREE knows without GPU facts (sm_90) is the answer that counts.
    if (other)
      answer = std::move(other);
    else if (firstError.find("Unknown") == std::string::npos)
      answer = Error{firstError};
    else if (other.error().find("Unknown") == std::string::npos)
      answer = Error{other.error()};
    else
      answer = Error{kNoTarget + std::string(name) + "' (" + firstError + "; " +
                     other.error() + ")"};
  }
  std::lock_guard lock(mutex);
  answers.insert_or_assign(key, answer);
  return answer;
}

bool namesNoTarget(const std::string &ireeTargetError) {
  return ireeTargetError.rfind(kNoTarget, 0) == 0;
}

Result<ResolvedTarget> resolveTarget(const tools::IreeInstallation *iree,
                                     std::string_view nameOrAttribute) {
  const size_t first = nameOrAttribute.find_first_not_of(" \t\n");
  if (first != std::string_view::npos &&
      (nameOrAttribute[first] == '#' || nameOrAttribute[first] == '<')) {
    auto target = config::gpuTargetFromText(nameOrAttribute);
    if (!target)
      return Error{target.error()};
    return ResolvedTarget{std::move(*target), {}};
  }
  std::string whyNotIree = "no IREE to ask";
  if (iree) {
    auto answer = ireeTarget(*iree, nameOrAttribute);
    if (answer)
      return ResolvedTarget{std::move(answer->target), {}};
    whyNotIree = answer.error();
  }
  if (auto builtin = config::builtinTarget(nameOrAttribute)) {
    std::string note = whyNotIree + "; Tilescope's built-in description of " +
                       builtin->arch + " is used";
    return ResolvedTarget{std::move(*builtin), std::move(note)};
  }
  auto table = config::resolveTarget(nameOrAttribute);
  return Error{iree ? whyNotIree + "; nor is it built into Tilescope"
                    : table.error()};
}

} // namespace tilescope::service
