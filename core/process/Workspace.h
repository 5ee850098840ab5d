// Where Tilescope keeps what jobs leave behind: one folder per try (the input
// as compiled, the command, logs, the vmfb, ISA) and the history database.
#pragma once

#include "core/util/Result.h"

#include <cstddef>
#include <filesystem>

namespace tilescope::process {

// $TILESCOPE_WORKSPACE, else $XDG_DATA_HOME/tilescope, else
// ~/.local/share/tilescope.
std::filesystem::path defaultWorkspace();

// A new, empty folder WORKSPACE/tries/YYYYMMDD-HHMMSS-PID-N, unique across
// processes (created with mkdir, which fails when it exists).
Result<std::filesystem::path>
newTryDirectory(const std::filesystem::path &workspace);

// A copy of an input that crashed an IREE tool, kept where it outlives the
// job's temporary folder: WORKSPACE/crashes/HASH/NAME, HASH its content's.
// Its path. The same input crashing again (a file checked again, an edit
// undone) finds the copy kept before instead of writing another; past
// `keep` kept inputs (the window checks a new text at every edit), the
// least recently crashed go.
inline constexpr size_t kCrashReproducersKept = 64;
Result<std::filesystem::path>
keepCrashReproducer(const std::filesystem::path &file,
                    const std::filesystem::path &workspace = defaultWorkspace(),
                    size_t keep = kCrashReproducersKept);

} // namespace tilescope::process
