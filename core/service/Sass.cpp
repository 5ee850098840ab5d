#include "core/service/Sass.h"

#include "core/isa/Assembly.h"
#include "core/isa/KernelResources.h"
#include "core/process/Process.h"
#include "core/service/UntrustedFiles.h"
#include "core/util/Files.h"

#include <algorithm>

#ifndef TILESCOPE_NVDISASM
#define TILESCOPE_NVDISASM ""
#endif

namespace tilescope::service {

namespace fs = std::filesystem;

Result<fs::path> locateNvdisasm() {
  if (auto found =
          locateCudaTool("TILESCOPE_NVDISASM", TILESCOPE_NVDISASM, "nvdisasm"))
    return *found;
  return Error{"nvdisasm not found (looked at $TILESCOPE_NVDISASM, " +
               std::string(*TILESCOPE_NVDISASM ? TILESCOPE_NVDISASM
                                               : "the set-up's .deps/") +
               ", PATH and /usr/local/cuda/bin): the SASS of NVIDIA kernels "
               "needs it; `scripts/tilescope.sh deps` installs it from PyPI"};
}

namespace {

// `nvdisasm ARGUMENTS CUBIN`'s output, or why not.
Result<std::string> disassembled(const fs::path &nvdisasm,
                                 std::vector<std::string> arguments,
                                 const fs::path &cubin,
                                 const ResourceOptions &options) {
  process::ProcessSpec disassemble;
  disassemble.program = nvdisasm;
  arguments.push_back(cubin.string());
  disassemble.arguments = std::move(arguments);
  disassemble.timeout = options.timeout;
  disassemble.cancel = options.cancel;
  const process::ProcessResult result = process::runProcess(disassemble);
  if (!result.succeeded())
    return Error{"nvdisasm " + result.describe() + " on " + cubin.string() +
                 ": " + result.standardError};
  return result.standardOutput;
}

// Whether `sass` was made with its PTX lines (an older try's was not).
bool hasPtxLines(const fs::path &sass) {
  auto text = readTextFile(sass);
  return text && isa::sassHasPtxLines(*text);
}

// One PTX file's cubin and its SASS; the SASS file, or why not. ptxas
// writes its line table (-lineinfo, which changes no instruction) so that
// each SASS instruction names the PTX line it came from.
Result<fs::path> sassOfOne(const fs::path &ptx, const fs::path &ptxas,
                           const fs::path &nvdisasm,
                           const ResourceOptions &options) {
  fs::path sass = ptx;
  sass.replace_extension(".sass");
  std::error_code error;
  if (fs::is_regular_file(sass, error) && hasPtxLines(sass))
    return sass;
  auto text = readTextFile(ptx);
  if (!text)
    return Error{text.error()};
  const std::string target = isa::ptxTarget(*text);
  if (target.empty())
    return Error{ptx.string() + ": no .target sm_NN"};
  fs::path cubin = ptx;
  cubin.replace_extension(".cubin");
  process::ProcessSpec assemble;
  assemble.program = ptxas;
  assemble.arguments = {"-arch=" + target, "-lineinfo", ptx.string(), "-o",
                        cubin.string()};
  assemble.timeout = options.timeout;
  assemble.cancel = options.cancel;
  const process::ProcessResult assembled = process::runProcess(assemble);
  if (!assembled.succeeded())
    return Error{"ptxas " + assembled.describe() + " on " + ptx.string() +
                 ": " + assembled.standardError};
  // nvdisasm prints the life ranges or the lines, not both at once.
  auto lifeRanges =
      disassembled(nvdisasm, {"-c", "-lrm", "count"}, cubin, options);
  if (!lifeRanges)
    return Error{lifeRanges.error()};
  auto lines = disassembled(nvdisasm, {"-c", "-gp"}, cubin, options);
  if (!lines)
    return Error{lines.error()};
  if (auto written =
          writeFileAtomically(sass, isa::sassWithPtxLines(*lifeRanges, *lines));
      !written)
    return Error{written.error()};
  return sass;
}

} // namespace

SassFiles sassOf(const std::vector<fs::path> &ptxFiles,
                 const ResourceOptions &options) {
  SassFiles result;
  std::vector<fs::path> ptx;
  for (const fs::path &file : ptxFiles)
    if (file.extension() == ".ptx")
      ptx.push_back(file);
  if (ptx.empty())
    return result;
  // The ptxas beside nvdisasm first: nvdisasm reads only its own
  // release's cubins.
  auto nvdisasm = locateNvdisasm();
  Result<fs::path> ptxas = Error{""};
  std::error_code error;
  if (nvdisasm && fs::is_regular_file(nvdisasm->parent_path() / "ptxas", error))
    ptxas = nvdisasm->parent_path() / "ptxas";
  else
    ptxas = locatePtxas();
  if (!ptxas || !nvdisasm) {
    result.notes.push_back("no SASS: " +
                           (ptxas ? nvdisasm.error() : ptxas.error()));
    return result;
  }
  for (const fs::path &file : ptx) {
    auto sass = sassOfOne(file, *ptxas, *nvdisasm, options);
    if (sass)
      result.files.push_back(*sass);
    else
      result.notes.push_back("no SASS: " + sass.error());
  }
  return result;
}

SassFiles assemblyWithSass(const std::vector<fs::path> &assembly,
                           const ResourceOptions &options) {
  SassFiles result = sassOf(assembly, options);
  for (const fs::path &file : assembly)
    if (std::find(result.files.begin(), result.files.end(), file) ==
        result.files.end())
      result.files.push_back(file);
  std::sort(result.files.begin(), result.files.end());
  return result;
}

Result<std::vector<isa::ProfiledKernel>>
readSourceCountersFile(const fs::path &file, const fs::path &within) {
  auto text = readUntrustedFile(file, kUntrustedFileBytes, within);
  if (!text)
    return Error{text.error()};
  auto kernels = isa::readNsightSourceCounters(*text);
  if (!kernels)
    return Error{file.string() + ": " + kernels.error()};
  return kernels;
}

} // namespace tilescope::service
