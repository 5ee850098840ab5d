#include "core/document/MlirFile.h"

#include "core/util/Files.h"

namespace fs = std::filesystem;

namespace tilescope::document {

Result<std::string> readMlirFile(const fs::path &path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    return Error{path.string() + ": no such file"};
  if (fs::is_directory(path, ec))
    return Error{path.string() + ": is a directory, not an MLIR file"};
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec)
    return Error{path.string() + ": cannot read: " + ec.message()};
  if (size > kMaximumFileBytes)
    return Error{path.string() + ": " + std::to_string(size >> 20) +
                 " MiB is larger than the " +
                 std::to_string(kMaximumFileBytes >> 20) +
                 " MiB Tilescope reads; pass a single dispatch"};
  return readTextFile(path);
}

} // namespace tilescope::document
