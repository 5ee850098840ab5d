#include "core/run/RemoteRun.h"

#include "core/util/Files.h"
#include "core/util/Hash.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tilescope::run {
namespace {

// The host's folder for Tilescope: $TILESCOPE_REMOTE_CACHE (read here: a
// path on the host, relative to its home or absolute), else
// ~/.cache/tilescope.
std::string remoteCache() {
  const char *given = std::getenv(kRemoteCacheVariable);
  return given && *given ? given : ".cache/tilescope";
}
// A path on the host as a word for its shell: relative ones from $HOME.
std::string onHost(const std::string &path) {
  return path.front() == '/' ? process::shellQuote(path)
                             : "\"$HOME\"/" + process::shellQuote(path);
}

std::string joined(const std::vector<std::string> &words) {
  std::string text;
  for (const std::string &word : words)
    text += (text.empty() ? "" : " ") + process::shellQuote(word);
  return text;
}

// The last lines a failed step printed, on one line.
std::string lastWords(const process::ProcessResult &result) {
  std::string text = result.standardError.empty() ? result.standardOutput
                                                  : result.standardError;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  const size_t keep = 400;
  if (text.size() > keep)
    text = "..." + text.substr(text.size() - keep);
  for (char &c : text)
    if (c == '\n')
      c = ' ';
  return text;
}

// ssh's own failure (exit 255: refused, unknown host, a key refused, a
// dropped connection), said as such; nullopt for anything the host did.
std::optional<Error> connectionFailed(const std::string &host,
                                      const std::string &what,
                                      const process::ProcessResult &result) {
  if (result.outcome == process::ProcessResult::Outcome::Exited &&
      result.exitCode == 255)
    return Error{"ssh " + host + " (" + what +
                 "): the connection failed: " + lastWords(result)};
  return std::nullopt;
}

struct Steps {
  std::vector<std::string> ssh;
  std::string host;
  const BundleRunOptions &options;
  std::vector<std::string> &log;

  // `ssh HOST sh -c COMMAND`, with `input` piped from a local command.
  process::ProcessSpec remote(const std::string &command,
                              const std::string &localInput = "",
                              const std::string &localOutput = "") const {
    std::string line =
        joined(ssh) + " " + process::shellQuote(host) + " " +
        process::shellQuote("sh -c " + process::shellQuote(command));
    if (!localInput.empty())
      line = localInput + " | " + line;
    if (!localOutput.empty())
      line += " | " + localOutput;
    process::ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", line};
    spec.timeout = options.timeout;
    spec.cancel = options.cancel;
    return spec;
  }

  // `command` on the host whatever stop was asked (the clean-up after a
  // stopped run): not through runProcess, which that stop would end too.
  // Whether it succeeded.
  bool cleanUp(const std::string &command) const {
    const std::string line =
        joined(ssh) + " " + process::shellQuote(host) + " " +
        process::shellQuote("sh -c " + process::shellQuote(command)) +
        " >/dev/null 2>&1";
    log.push_back(line);
    return std::system(line.c_str()) == 0;
  }

  Result<process::ProcessResult> run(const std::string &what,
                                     process::ProcessSpec spec) const {
    log.push_back(spec.arguments.back());
    process::ProcessResult result = runProcess(spec);
    if (result.succeeded())
      return result;
    if (auto failed = connectionFailed(host, what, result))
      return *failed;
    return Error{"ssh " + host + " (" + what + ") " + result.describe() +
                 (lastWords(result).empty() ? "" : ": " + lastWords(result))};
  }
};

// The runtime tools in the host's cache, `tools` (a word for its shell),
// copied there when missing: whether they were. Filled beside the cache's
// folder and renamed into place, so a run never sees half of them; a
// folder another run filled meanwhile is kept, a broken one replaced.
Result<bool> toolsOnHost(const Steps &steps, const std::string &tools,
                         const fs::path &toolsDirectory) {
  const std::string complete = "test -x " + tools +
                               "/iree-benchmark-module && test -x " + tools +
                               "/iree-run-module";
  const process::ProcessSpec look = steps.remote(complete);
  steps.log.push_back(look.arguments.back());
  const process::ProcessResult present = runProcess(look);
  if (auto failed = connectionFailed(steps.host,
                                     "looking for the runtime tools", present))
    return *failed;
  if (present.succeeded())
    return false;
  const std::string partial = tools + ".partial.$$";
  auto copied = steps.run(
      "copying the runtime tools to " + tools,
      steps.remote("mkdir -p " + partial + " && tar -xf - -C " + partial +
                       " && { mv -T " + partial + " " + tools +
                       " 2>/dev/null || { " + complete + " && rm -rf " +
                       partial + "; } || { rm -rf " + tools + " && mv -T " +
                       partial + " " + tools + "; }; }",
                   "tar -C " + process::shellQuote(toolsDirectory.string()) +
                       " -cf - iree-benchmark-module iree-run-module"));
  if (!copied)
    return Error{copied.error()};
  return true;
}

} // namespace

std::optional<fs::path> programOnPath(const std::string &name) {
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? std::optional<fs::path>(name)
                                             : std::nullopt;
  const char *path = std::getenv("PATH");
  std::stringstream folders(path ? path : "/usr/bin:/bin");
  std::string folder;
  while (std::getline(folders, folder, ':'))
    if (!folder.empty() &&
        ::access((fs::path(folder) / name).c_str(), X_OK) == 0)
      return fs::path(folder) / name;
  return std::nullopt;
}

Result<std::string> runtimeToolsKey(const fs::path &tools) {
  Fnv1a hash;
  for (const char *tool : {"iree-benchmark-module", "iree-run-module"}) {
    std::ifstream in(tools / tool, std::ios::binary);
    if (!in)
      return Error{"no " + std::string(tool) + " in " + tools.string() +
                   " to copy to the host"};
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0)
      hash.add({buffer, static_cast<size_t>(in.gcount())});
  }
  return hash.hex();
}

std::string RunPlace::toString() const {
  switch (kind) {
  case Kind::Local:
    return "local";
  case Kind::Ssh:
    return "ssh:" + host;
  case Kind::Slurm:
    return "slurm:" + partition;
  }
  return "local";
}

std::string RunPlace::where() const {
  switch (kind) {
  case Kind::Local:
    return "";
  case Kind::Ssh:
    return "at " + host;
  case Kind::Slurm:
    return "on Slurm partition " + partition;
  }
  return "";
}

Result<RunPlace> parseRunPlace(const std::string &text) {
  if (text.empty() || text == "local")
    return RunPlace{};
  const auto word = [](const std::string &name) {
    return !name.empty() &&
           name.find_first_of(" \t\n'\"") == std::string::npos &&
           name.front() != '-';
  };
  RunPlace place;
  if (text.rfind("ssh:", 0) == 0) {
    place.kind = RunPlace::Kind::Ssh;
    place.host = text.substr(4);
    if (!word(place.host))
      return Error{"\"" + text +
                   "\": ssh:HOST needs a host name (a Host of "
                   "~/.ssh/config, or user@name)"};
    return place;
  }
  if (text.rfind("slurm:", 0) == 0) {
    place.kind = RunPlace::Kind::Slurm;
    place.partition = text.substr(6);
    if (!word(place.partition) ||
        place.partition.find_first_of(";&|$`<>/") != std::string::npos)
      return Error{"\"" + text +
                   "\": slurm:PARTITION needs a partition name (as sinfo "
                   "lists them)"};
    return place;
  }
  return Error{"\"" + text + "\": expected local, ssh:HOST or slurm:PARTITION"};
}

Result<RunPlace> workspaceRunPlace(const fs::path &workspace) {
  const fs::path file = workspace / "settings.json";
  std::error_code ec;
  if (!fs::exists(file, ec))
    return RunPlace{};
  auto text = readTextFile(file);
  if (!text)
    return Error{text.error()};
  const nlohmann::json settings = nlohmann::json::parse(*text, nullptr, false);
  if (settings.is_discarded() || !settings.is_object())
    return Error{file.string() + ": not a JSON object"};
  const auto on = settings.find("on");
  if (on == settings.end())
    return RunPlace{};
  if (!on->is_string())
    return Error{file.string() + ": \"on\" must be a string"};
  auto place = parseRunPlace(on->get<std::string>());
  if (!place)
    return Error{file.string() + ": \"on\": " + place.error()};
  return place;
}

Result<RunPlace> runPlaceOr(const std::string &text,
                            const fs::path &workspace) {
  if (text.empty() || text == "default")
    return workspaceRunPlace(workspace);
  return parseRunPlace(text);
}

std::string deviceListingCommand(const std::string &tools) {
  return tools + "/iree-run-module --list_devices 2>/dev/null; echo '--- " +
         "gpus'; hostname; { nvidia-smi -L || rocm-smi --showproductname; } " +
         "2>/dev/null; true";
}

PlaceDevices readDeviceListing(const std::string &output) {
  PlaceDevices found;
  std::stringstream lines(output);
  bool gpus = false, named = false;
  for (std::string line; std::getline(lines, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
      line.pop_back();
    if (line == "--- gpus") {
      gpus = true;
      continue;
    }
    if (line.empty())
      continue;
    if (!gpus) {
      if (line.find("://") != std::string::npos)
        found.devices.push_back(line);
    } else if (!named) {
      named = true; // the hostname line
      found.place = line;
    } else if (line.find_first_not_of("=- ") != std::string::npos) {
      found.gpus.push_back(line);
    }
  }
  return found;
}

namespace {

// What reaching a host takes: ssh's words, and the host's folder for these
// runtime tools (a word for its shell).
struct HostReach {
  std::vector<std::string> ssh;
  std::string tools;
};
Result<HostReach> reachHost(const fs::path &toolsDirectory) {
  auto ssh = sshCommand();
  if (!ssh)
    return Error{ssh.error()};
  auto key = runtimeToolsKey(toolsDirectory);
  if (!key)
    return Error{key.error()};
  return HostReach{std::move(*ssh),
                   onHost(remoteCache() + "/iree-runtime-" + *key)};
}

// `command` run in `folder` on the host, its shell's pid written to run.pid
// first: that shell is the run's process group (sshd makes each command a
// session of its own), so a stop here can end it there (stopInFolder).
std::string inFolderWithPid(const std::string &folder,
                            const std::string &command) {
  return "cd " + folder + " && echo $$ > run.pid && exec " + command;
}

// Ends what inFolderWithPid started in `folder` (TERM to its process group,
// KILL a second later) and removes the folder: the ssh here is gone once a
// run is stopped or past its time, but the host's would go on.
std::string stopInFolder(const std::string &folder) {
  return "p=$(cat " + folder + "/run.pid 2>/dev/null) && " +
         "g=$(ps -o pgid= -p \"$p\" 2>/dev/null | tr -d ' ') && " +
         "{ kill -TERM -- \"-${g:-$p}\" 2>/dev/null || kill -TERM \"$p\"; } " +
         "2>/dev/null; sleep 1; kill -KILL -- \"-${g:-$p}\" 2>/dev/null; " +
         "rm -rf " + folder;
}

bool stoppedHere(const process::ProcessResult &result) {
  return result.outcome == process::ProcessResult::Outcome::Cancelled ||
         result.outcome == process::ProcessResult::Outcome::TimedOut;
}

// The host's cache folder KIND/KEY for a folder here: KEY from its path and
// this machine's name, so two machines' runs never share one.
std::string hostFolderFor(const std::string &kind, const fs::path &local) {
  char self[256] = "";
  ::gethostname(self, sizeof self - 1);
  return remoteCache() + "/" + kind + "/" +
         Fnv1a().add(fs::absolute(local).string()).add(self).hex();
}

} // namespace

Result<PlaceDevices> devicesOverSsh(const std::string &host,
                                    const fs::path &toolsDirectory,
                                    std::chrono::milliseconds timeout) {
  auto reach = reachHost(toolsDirectory);
  if (!reach)
    return Error{reach.error()};
  BundleRunOptions options;
  options.timeout = timeout;
  std::vector<std::string> log;
  Steps steps{reach->ssh, host, options, log};
  const std::string &tools = reach->tools;
  auto copied = toolsOnHost(steps, tools, toolsDirectory);
  if (!copied)
    return Error{copied.error()};
  auto listed = steps.run("listing its devices",
                          steps.remote(deviceListingCommand(tools)));
  if (!listed)
    return Error{listed.error()};
  PlaceDevices found = readDeviceListing(listed->standardOutput);
  found.place =
      "ssh:" + host + (found.place.empty() ? "" : " (" + found.place + ")");
  found.steps = std::move(log);
  return found;
}

Result<process::ProcessResult>
runToolOverSsh(const std::string &host, const fs::path &directory,
               const std::vector<std::string> &inputs, const std::string &tool,
               const std::vector<std::string> &arguments,
               const std::string &outputPrefix, const fs::path &toolsDirectory,
               std::chrono::milliseconds timeout,
               const std::atomic<bool> *cancel, std::vector<std::string> &log) {
  auto reach = reachHost(toolsDirectory);
  if (!reach)
    return Error{reach.error()};
  BundleRunOptions options;
  options.timeout = timeout;
  options.cancel = cancel;
  Steps steps{reach->ssh, host, options, log};
  const std::string &tools = reach->tools;
  auto copied = toolsOnHost(steps, tools, toolsDirectory);
  if (!copied)
    return Error{copied.error()};
  const std::string where = fs::absolute(directory).string();
  const std::string folder = onHost(hostFolderFor("checks", directory));
  std::string files;
  for (const std::string &input : inputs)
    files += " " + process::shellQuote(input);
  auto shipped = steps.run(
      "copying the inputs",
      steps.remote("rm -rf " + folder + " && mkdir -p " + folder +
                       " && tar -xf - -C " + folder,
                   "tar -C " + process::shellQuote(where) + " -cf -" + files));
  if (!shipped)
    return Error{shipped.error()};
  std::string command = tools + "/" + tool;
  for (const std::string &argument : arguments)
    command += " " + process::shellQuote(argument);
  const process::ProcessSpec spec =
      steps.remote(inFolderWithPid(folder, command));
  log.push_back(spec.arguments.back());
  process::ProcessResult ran = runProcess(spec);
  if (stoppedHere(ran)) {
    steps.cleanUp(stopInFolder(folder));
    return ran;
  }
  if (auto failed = connectionFailed(host, "running " + tool, ran))
    return *failed;
  if (ran.succeeded() && !outputPrefix.empty()) {
    auto fetched = steps.run(
        "bringing the outputs back",
        steps.remote("cd " + folder + " && tar -cf - " +
                         process::shellQuote(outputPrefix) + "*",
                     "", "tar -xf - -C " + process::shellQuote(where)));
    if (!fetched)
      return Error{fetched.error()};
  }
  steps.cleanUp("rm -rf " + folder);
  return ran;
}

Result<std::vector<std::string>> sshCommand() {
  std::vector<std::string> words;
  const char *given = std::getenv(kSshCommandVariable);
  std::stringstream split(given && *given ? given : "ssh");
  for (std::string word; split >> word;)
    words.push_back(word);
  auto program = programOnPath(words.front());
  if (!program)
    return Error{"no " + words.front() + " on PATH (" +
                 (given && *given ? std::string("$") + kSshCommandVariable
                                  : std::string("install openssh-client")) +
                 ")"};
  words.front() = program->string();
  for (const char *option : {"BatchMode=yes", "ConnectTimeout=20",
                             "ServerAliveInterval=15", "ServerAliveCountMax=4"})
    words.insert(words.begin() + 1, {"-o", option});
  return words;
}

Result<RemoteRun> runBundleOverSsh(const std::string &host,
                                   const fs::path &bundle,
                                   const BundleRunOptions &options,
                                   const fs::path &toolsDirectory) {
  auto reach = reachHost(toolsDirectory);
  if (!reach)
    return Error{reach.error()};
  RemoteRun run;
  run.host = host;
  Steps steps{reach->ssh, host, options, run.steps};
  const std::string &tools = reach->tools;
  const std::string where = fs::absolute(bundle).string();
  run.folder = hostFolderFor("runs", bundle);
  const std::string folder = onHost(run.folder);

  // 1. The runtime tools, once per IREE build.
  auto copied = toolsOnHost(steps, tools, toolsDirectory);
  if (!copied)
    return Error{copied.error()};
  run.toolsCopied = *copied;
  // 2. The bundle, without results from an earlier run.
  auto shipped =
      steps.run("copying the bundle to " + run.folder,
                steps.remote("rm -rf " + folder + " && mkdir -p " + folder +
                                 " && tar -xf - -C " + folder,
                             "tar -C " + process::shellQuote(where) +
                                 " --exclude=./results -cf - ."));
  if (!shipped)
    return Error{shipped.error()};
  // 3. run.sh there, with the bundle's settings.
  process::ProcessSpec local = runBundleCommand(bundle, options);
  std::string command = "env TILESCOPE_TOOLS=" + tools;
  for (const auto &[name, value] : local.environment)
    if (name != "TILESCOPE_TOOLS" && name != "TILESCOPE_RESULTS")
      command += " " + name + "=" + process::shellQuote(value);
  command += " bash run.sh";
  run.spec = steps.remote(inFolderWithPid(folder, command));
  run.spec.onOutput = options.onOutput;
  run.steps.push_back(run.spec.arguments.back());
  run.process = runProcess(run.spec);
  if (stoppedHere(run.process)) {
    run.stopped = steps.cleanUp(stopInFolder(folder));
    return run;
  }
  if (auto failed = connectionFailed(host, "running run.sh", run.process))
    return *failed;
  // 4. Its results back; the host's copy goes.
  std::error_code ec;
  fs::remove_all(bundle / "results", ec);
  fs::create_directories(bundle / "results", ec);
  auto fetched =
      steps.run("bringing the results back",
                steps.remote("tar -C " + folder + " -cf - results", "",
                             "tar -xf - -C " + process::shellQuote(where)));
  if (!fetched)
    return Error{fetched.error()};
  runProcess(steps.remote("rm -rf " + folder));
  return run;
}

} // namespace tilescope::run
