// Where a run bundle runs: here, or on a GPU host reached with the
// system's OpenSSH (the user's own ~/.ssh/config, keys and agent; no
// password is asked for or stored). Compiling stays here; only the bundle
// travels (core/run/RunBundle.h):
//   1. the runtime tools go once into the host's cache,
//      ~/.cache/tilescope/iree-runtime-KEY (KEY from the tools' bytes, so
//      another IREE build gets its own; $TILESCOPE_REMOTE_CACHE moves it);
//   2. the bundle (modules, run.sh, manifest; no tools) into
//      ~/.cache/tilescope/runs/NAME;
//   3. run.sh runs there with the bundle's settings, its output live;
//   4. results/ comes back into the bundle here, and the host's copy of the
//      bundle is removed. A run stopped here (or past its time) is ended
//      on the host too: run.sh's process group there is signalled.
// Everything goes through `ssh HOST sh -c ...` and tar on both ends: no
// scp, rsync or daemon is needed on the host, only a POSIX shell and tar.
#pragma once

#include "core/process/Process.h"
#include "core/run/RunBundle.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::run {

struct RunPlace {
  enum class Kind { Local, Ssh, Slurm };
  Kind kind = Kind::Local;
  std::string host;      // as ssh takes it (a Host of ~/.ssh/config, user@name)
  std::string partition; // a Slurm partition (SlurmRun.h)
  bool local() const { return kind == Kind::Local; }
  // "local", "ssh:HOST" or "slurm:PARTITION": what --on takes.
  std::string toString() const;
  // "at HOST", "on Slurm partition P", "" here.
  std::string where() const;
};
// "local" (or ""), "ssh:HOST", "slurm:PARTITION"; an Error says what is
// taken.
Result<RunPlace> parseRunPlace(const std::string &text);

// Where a workspace's timed runs go when a command names no place: the
// "on" of WORKSPACE/settings.json ({"on": "slurm:gpu"}, written by hand or
// a script), else here. An Error names the file and what is wrong in it.
Result<RunPlace> workspaceRunPlace(const std::filesystem::path &workspace);
// "" (or "default") for the workspace's place, else parseRunPlace.
Result<RunPlace> runPlaceOr(const std::string &text,
                            const std::filesystem::path &workspace);

// The environment variable naming the ssh command Tilescope runs, as git's
// GIT_SSH_COMMAND: "ssh -F ~/.ssh/lab-config" (split on blanks).
inline constexpr const char *kSshCommandVariable = "TILESCOPE_SSH";
// Where Tilescope keeps things on a host (read here; relative to the
// host's home, or absolute): default .cache/tilescope.
inline constexpr const char *kRemoteCacheVariable = "TILESCOPE_REMOTE_CACHE";
// ssh's words: $TILESCOPE_SSH or "ssh", resolved on PATH, with BatchMode
// (a key or an agent, never a password prompt), a connect timeout and
// keep-alives (a dropped connection ends the run within a minute). An Error
// when there is no ssh.
Result<std::vector<std::string>> sshCommand();

// The program `name` on $PATH (or `name` itself when it holds a '/'),
// when it is there and executable.
std::optional<std::filesystem::path> programOnPath(const std::string &name);
// A key for a folder of IREE's runtime tools: FNV-1a over the bytes of
// iree-benchmark-module and iree-run-module (another IREE build, another
// key). An Error when either is missing.
Result<std::string> runtimeToolsKey(const std::filesystem::path &tools);

// What a place has to run on, as IREE's runtime there sees it: the devices
// `iree-run-module --list_devices` finds and the GPUs `nvidia-smi -L` or
// `rocm-smi` name where one is installed. What `doctor --on PLACE` says.
struct PlaceDevices {
  std::string place;                // "ssh:gpu-box", "slurm:gpu (node n12)"
  std::vector<std::string> devices; // "cuda://GPU-...", "local-task://"
  std::vector<std::string> gpus;    // the vendor tool's lines
  std::vector<std::string> steps;   // the commands, as run
};
// The shell command that lists them with the runtime tools in `tools` (a
// word for the shell there), and its output read back.
std::string deviceListingCommand(const std::string &tools);
PlaceDevices readDeviceListing(const std::string &output);
// On `host`, the runtime tools copied to its cache first when missing.
Result<PlaceDevices> devicesOverSsh(const std::string &host,
                                    const std::filesystem::path &toolsDirectory,
                                    std::chrono::milliseconds timeout);

// One runtime tool run on `host` (a checked run's tested module): the
// files `inputs` of `directory` go to a fresh folder in the host's cache,
// `tool` (iree-run-module, from the host's cache of the runtime tools,
// copied there when missing) runs there with `arguments`, and the files it
// wrote whose names start with `outputPrefix` come back into `directory`
// (none with an empty prefix: what the tool prints is the answer); the
// host's folder is removed. The tool's own failure is the result; an
// Error is ssh's (the connection, a copy). Each step goes into `steps`.
Result<process::ProcessResult> runToolOverSsh(
    const std::string &host, const std::filesystem::path &directory,
    const std::vector<std::string> &inputs, const std::string &tool,
    const std::vector<std::string> &arguments, const std::string &outputPrefix,
    const std::filesystem::path &toolsDirectory,
    std::chrono::milliseconds timeout, const std::atomic<bool> *cancel,
    std::vector<std::string> &steps);

struct RemoteRun {
  std::string host;
  process::ProcessSpec spec;      // run.sh on the host, as run (ssh ...)
  process::ProcessResult process; // its result
  bool toolsCopied = false;
  // Stopped here or past its time: whether the host's run.sh was ended
  // there too (its process group signalled, its folder removed).
  bool stopped = false;
  std::string folder; // the bundle's folder on the host (removed after)
  std::vector<std::string> steps; // each step as a shell command
};

// Runs `bundle` (a standalone bundle without tools: writeRunBundle with
// carryTools off) on `host` with `options` (the tools are the host's
// cache, filled from `toolsDirectory` when missing) and brings its
// results/ back. An Error names the step that failed and what ssh or the
// host said (connection refused, a host key, a full disk); run.sh's own
// failures are the result's process and results.
Result<RemoteRun> runBundleOverSsh(const std::string &host,
                                   const std::filesystem::path &bundle,
                                   const BundleRunOptions &options,
                                   const std::filesystem::path &toolsDirectory);

} // namespace tilescope::run
