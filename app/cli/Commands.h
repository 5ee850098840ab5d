// The tilescope-cli commands, one function each. `arguments` starts with the
// program and command name, as QCommandLineParser expects.
#pragma once

#include <QStringList>

namespace tilescope::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

int check(const QStringList &arguments);
int convert(const QStringList &arguments);
int mmaLayouts(const QStringList &arguments);
int explain(const QStringList &arguments);
int render(const QStringList &arguments);

} // namespace tilescope::cli
