#include "core/devices/HostCpu.h"

#include "core/util/Files.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

namespace tilescope::devices {
namespace {

// Bytes per second of a copy through `bytes` of memory, the best of
// `rounds` (each read and write counted).
double measureCopy(size_t bytes, int rounds) {
  std::vector<char> from(bytes, 1), to(bytes, 0);
  double best = 0;
  for (int i = 0; i < rounds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    std::memcpy(to.data(), from.data(), bytes);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    from[static_cast<size_t>(i) % bytes] = to[bytes / 2]; // keep the copy
    if (seconds > 0)
      best = std::max(best, 2.0 * static_cast<double>(bytes) / seconds);
  }
  return best;
}

Result<HostCpu> readHost() {
  auto info = readTextFile("/proc/cpuinfo");
  if (!info)
    return Error{"no /proc/cpuinfo to read the CPU from: " + info.error()};
  HostCpu cpu;
  std::istringstream lines(*info);
  std::string line, flags;
  double mhz = 0;
  while (std::getline(lines, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const std::string value =
        colon + 2 <= line.size() ? line.substr(colon + 2) : std::string();
    if (key == "model name" && cpu.model.empty())
      cpu.model = value;
    else if (key == "cpu MHz" && mhz == 0)
      mhz = std::atof(value.c_str());
    else if (key == "flags" && flags.empty())
      flags = " " + value + " ";
  }
  cpu.cores =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  cpu.clockHz = mhz * 1e6;
  cpu.f32Lanes = flags.find(" avx512f ") != std::string::npos ? 16
                 : flags.find(" avx2 ") != std::string::npos  ? 8
                                                              : 4;
  const bool fma = flags.find(" fma ") != std::string::npos;
  // Two vector pipes a core, each a multiply-add (2 operations) with FMA.
  cpu.vectorF32OpsPerSecond = static_cast<double>(cpu.cores) * cpu.clockHz *
                              cpu.f32Lanes * 2 * (fma ? 2 : 1);
  cpu.memoryBytesPerSecond = measureCopy(size_t{64} << 20, 3);
  if (cpu.clockHz <= 0 || cpu.memoryBytesPerSecond <= 0)
    return Error{"the CPU's clock or bandwidth could not be read"};
  std::ostringstream how;
  how << cpu.cores << " cores at " << mhz << " MHz (/proc/cpuinfo), "
      << cpu.f32Lanes << " f32 lanes" << (fma ? " with FMA" : "")
      << ", two vector pipes a core (assumed); memory bandwidth measured by "
         "a 64 MiB copy";
  cpu.how = how.str();
  return cpu;
}

} // namespace

Result<HostCpu> hostCpu() {
  static std::once_flag once;
  static Result<HostCpu> host = Error{"not read"};
  std::call_once(once, [] { host = readHost(); });
  return host;
}

config::GpuTarget rooflineTargetOf(const HostCpu &cpu) {
  config::GpuTarget target;
  target.arch = "host";
  target.product = cpu.model;
  target.backend = "llvm-cpu";
  target.peakMemoryBytesPerSecond = cpu.memoryBytesPerSecond;
  target.peakVectorF32OpsPerSecond = cpu.vectorF32OpsPerSecond;
  target.source = "this machine's CPU: " + cpu.how;
  return target;
}

} // namespace tilescope::devices
