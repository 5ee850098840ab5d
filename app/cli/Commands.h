// The tilescope-cli commands, one function each. `arguments` starts with the
// program and command name, as QCommandLineParser expects.
#pragma once

#include <QStringList>

class QCommandLineParser;

namespace tilescope::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Adds --help, parses `arguments`, prints "tilescope-cli COMMAND: error" and
// returns false on bad options; prints the help and exits on --help.
bool parseCommandLine(QCommandLineParser &parser, const QStringList &arguments,
                      const QString &command);

int check(const QStringList &arguments);
int convert(const QStringList &arguments);
int mmaLayouts(const QStringList &arguments);
int explain(const QStringList &arguments);
int render(const QStringList &arguments);

} // namespace tilescope::cli
