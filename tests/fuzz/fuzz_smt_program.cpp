// libFuzzer target for IREE's constraint programs read and run by
// Tilescope: no input may crash, hang or trip a sanitizer. An input is an
// optional first line "dims: A B C" and a constraints region as IREE prints
// it (the corpus: the examples' regions). What reads is run on an
// assignment made from the input and its space listed within a budget; the
// listed points must all satisfy the program.
#include "core/config/smt/SmtProgram.h"
#include "core/config/smt/SmtSpace.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

using namespace tilescope::config;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<std::optional<int64_t>> dims;
  if (text.rfind("dims:", 0) == 0) {
    const size_t end = text.find('\n');
    std::istringstream line(
        text.substr(5, end == std::string::npos ? std::string::npos : end - 5));
    long long d = 0;
    while (dims.size() < 8 && line >> d)
      dims.push_back(d);
    text = end == std::string::npos ? std::string() : text.substr(end + 1);
  }
  auto program = parseSmtProgram(text, dims);
  if (!program) {
    if (program.error().empty())
      std::abort(); // a refusal always says why
    return 0;
  }
  // Some assignment from the input's bytes, run as IREE's verifier runs it.
  std::vector<std::optional<int64_t>> assignment(program->variables.size());
  for (size_t v = 0; v < assignment.size(); ++v)
    if (v < size)
      assignment[v] = static_cast<int64_t>(data[v] % 130) - 1;
  (void)violatedAsserts(*program, assignment);

  SmtSpaceOptions options;
  options.limit = 64;
  options.maxVisited = 5000;
  options.widestRange = 256;
  auto space = enumerateSmtSpace(*program, options);
  if (!space)
    return space.error().empty() ? (std::abort(), 0) : 0;
  // Every listed assignment holds (with some values of the free ones,
  // which IREE's evaluator reads as unknown: then nothing may fail).
  for (const std::vector<int64_t> &point : space->points) {
    std::vector<std::optional<int64_t>> values(program->variables.size());
    size_t k = 0;
    for (size_t v = 0; v < program->variables.size(); ++v)
      if (!program->variables[v].free)
        values[v] = point.at(k++);
    if (!violatedAsserts(*program, values).empty()) {
      std::fprintf(stderr, "a listed assignment breaks an assert\n");
      std::abort();
    }
  }
  return 0;
}
