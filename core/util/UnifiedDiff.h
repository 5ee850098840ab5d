// A unified diff of two texts, line by line, as `diff -u` and `git diff`
// print it (GNU patch applies it). The shortest edit script comes from dtl
// (Debian's libdtl-dev, header only): Wu's O(NP) algorithm, well kept and
// exact, instead of a hand-written one.
#pragma once

#include <string>

namespace tilescope {

// "--- a/FILE\n+++ b/FILE\n@@ -l,n +l,n @@\n..." with `context` lines around
// each change; empty when the texts are equal. A last line without a newline
// is marked "\ No newline at end of file", as diff does.
std::string unifiedDiff(const std::string &before, const std::string &after,
                        const std::string &beforeName,
                        const std::string &afterName, int context = 3);

} // namespace tilescope
