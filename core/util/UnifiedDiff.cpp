#include "core/util/UnifiedDiff.h"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <vector>

namespace tilescope {
namespace {

struct Line {
  std::string text; // without its newline
  bool newline = true;
  bool operator==(const Line &other) const {
    return text == other.text && newline == other.newline;
  }
};

std::vector<Line> splitLines(const std::string &text) {
  std::vector<Line> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back({text.substr(start), false});
      break;
    }
    lines.push_back({text.substr(start, end - start), true});
    start = end + 1;
  }
  return lines;
}

void appendLine(std::string &out, char mark, const Line &line) {
  out += mark;
  out += line.text;
  out += '\n';
  if (!line.newline)
    out += "\\ No newline at end of file\n";
}

// "l,n" as diff writes a hunk's range: an empty range names the line
// before it, and a range of one line drops ",1".
std::string range(long long first, long long count) {
  if (count == 0)
    return std::to_string(first - 1) + ",0";
  if (count == 1)
    return std::to_string(first);
  return std::to_string(first) + "," + std::to_string(count);
}

} // namespace

std::string unifiedDiff(const std::string &before, const std::string &after,
                        const std::string &beforeName,
                        const std::string &afterName, int context) {
  if (before == after)
    return {};
  const std::vector<Line> a = splitLines(before), b = splitLines(after);
  dtl::Diff<Line, std::vector<Line>> diff(a, b);
  diff.compose();

  // The edit script as one mark per step; hunks are drawn from it here so
  // that ranges and the no-newline marker follow GNU diff exactly.
  struct Step {
    dtl::edit_t type;
    const Line *line;
  };
  std::vector<Step> steps;
  for (const auto &[line, info] : diff.getSes().getSequence())
    steps.push_back({info.type, nullptr});
  {
    size_t i = 0, j = 0;
    for (Step &step : steps) {
      if (step.type == dtl::SES_ADD)
        step.line = &b[j++];
      else if (step.type == dtl::SES_DELETE)
        step.line = &a[i++];
      else {
        step.line = &a[i++];
        ++j;
      }
    }
  }

  std::string out = "--- " + beforeName + "\n+++ " + afterName + "\n";
  const long long n = static_cast<long long>(steps.size());
  const long long ctx = std::max(0, context);
  long long k = 0;
  long long aLine = 1, bLine = 1; // line numbers at steps[k]
  while (k < n) {
    // The next change, and the hunk around it: changes closer than twice
    // the context join one hunk.
    long long first = k;
    while (first < n && steps[first].type == dtl::SES_COMMON)
      ++first;
    if (first == n)
      break;
    const long long start = std::max(k, first - ctx);
    long long last = first; // one past the last change in the hunk
    long long common = 0;
    for (long long s = first; s < n; ++s) {
      if (steps[s].type == dtl::SES_COMMON) {
        if (++common > 2 * ctx)
          break;
      } else {
        common = 0;
        last = s + 1;
      }
    }
    const long long stop = std::min(n, last + ctx);
    // Line numbers at `start`.
    for (long long s = k; s < start; ++s) {
      ++aLine;
      ++bLine;
    }
    long long aCount = 0, bCount = 0;
    for (long long s = start; s < stop; ++s) {
      if (steps[s].type != dtl::SES_ADD)
        ++aCount;
      if (steps[s].type != dtl::SES_DELETE)
        ++bCount;
    }
    out +=
        "@@ -" + range(aLine, aCount) + " +" + range(bLine, bCount) + " @@\n";
    for (long long s = start; s < stop; ++s) {
      const char mark = steps[s].type == dtl::SES_ADD      ? '+'
                        : steps[s].type == dtl::SES_DELETE ? '-'
                                                           : ' ';
      appendLine(out, mark, *steps[s].line);
    }
    aLine += aCount;
    bLine += bCount;
    k = stop;
  }
  return out;
}

} // namespace tilescope
