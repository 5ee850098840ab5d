// The assembly the pinned iree-compile writes for one dispatch: the text
// compiled for its own target with the executables' intermediates dumped,
// and the one .ptx or .rocmasm file found among them. For the tests that
// hold core/isa's readers to IREE's own kernels.
#pragma once

#include "TestSupport.h"

#include "core/process/Process.h"
#include "core/service/CompileJob.h"
#include "core/service/IreeCommands.h"
#include "core/util/Files.h"
#include "core/util/Result.h"

#include <chrono>
#include <filesystem>
#include <string>

namespace tilescope::test {

// `text` compiled for `target` ("sm_90", "gfx942") in `folder`; the
// assembly file.
inline Result<std::filesystem::path>
compiledAssembly(const std::string &text, const std::string &target,
                 const std::filesystem::path &folder) {
  const std::filesystem::path input = folder / "input.mlir";
  if (auto written = writeFileAtomically(input, text); !written)
    return Error{written.error()};
  service::CompileRequest request{
      input,
      folder / "module.vmfb",
      *service::compileTarget(target),
      /*inputCarriesTarget=*/true,
      {"--iree-hal-dump-executable-intermediates-to=" +
           (folder / "intermediates").string(),
       "--iree-hal-dump-executable-binaries-to=" +
           (folder / "binaries").string()}};
  auto spec = service::compileCommand(projectIree(), request);
  if (!spec)
    return Error{spec.error()};
  spec->timeout = std::chrono::minutes(5);
  const process::ProcessResult result = process::runProcess(*spec);
  if (!result.succeeded())
    return Error{spec->shellCommand() + " " + result.describe() + "\n" +
                 result.standardError};
  const auto files = service::compileArtifactsIn(folder).assembly();
  if (files.size() != 1)
    return Error{"expected one assembly file, found " +
                 std::to_string(files.size())};
  return files.front();
}

} // namespace tilescope::test
