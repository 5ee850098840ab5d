// The tilescope-cli commands, one function each. `arguments` starts with the
// program and command name, as QCommandLineParser expects.
#pragma once

#include "app/common/IreeSettings.h"

#include <QStringList>

#include <filesystem>

class QCommandLineParser;

namespace tilescope::run {
struct RunPlace;
}
namespace tilescope::tools {
struct IreeInstallation;
}

namespace tilescope::cli {

using app::kPinnedRelease;

// Exit codes, the same for every command (and listed in --help):
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // problems found, an edit refused
inline constexpr int kExitUsage = 2;   // bad options or arguments
inline constexpr int kExitIreeUnavailable = 3; // no IREE to load or run
inline constexpr int kExitBadInput = 4; // a file unreadable or unparsable
inline constexpr int kExitCannotRunHere =
    5; // needs a device this machine lacks

inline constexpr const char *kExitCodesHelp =
    "Exit codes: 0 ok, 1 problems found, an edit refused, a compile, run or "
    "check failed, 2 usage, 3 IREE unavailable, 4 a file unreadable or "
    "unparsable, 5 it needs a device this machine lacks.\n";

// Adds --help, parses `arguments`, prints "tilescope-cli COMMAND: error" and
// returns false on bad options; prints the help and exits on --help.
bool parseCommandLine(QCommandLineParser &parser, const QStringList &arguments,
                      const QString &command);

int check(const QStringList &arguments);
int convert(const QStringList &arguments);
int mmaLayouts(const QStringList &arguments);
int targets(const QStringList &arguments);
int explain(const QStringList &arguments);
int render(const QStringList &arguments);
int show(const QStringList &arguments);
int setConfig(const QStringList &arguments);
int diff(const QStringList &arguments);
int configure(const QStringList &arguments);
int defaultConfig(const QStringList &arguments);
int ireeLayouts(const QStringList &arguments);
int compile(const QStringList &arguments);
int resources(const QStringList &arguments);
int isa(const QStringList &arguments);
int bench(const QStringList &arguments);
int verify(const QStringList &arguments);
int history(const QStringList &arguments);
int compare(const QStringList &arguments);
int report(const QStringList &arguments);
int exportSpec(const QStringList &arguments);
int sweep(const QStringList &arguments);
int tune(const QStringList &arguments);
int splitK(const QStringList &arguments);
int bundle(const QStringList &arguments);
int importResults(const QStringList &arguments);
// doctor --on PLACE: the devices IREE's runtime finds there (exit 5 with
// none but the CPU's).
int doctorAt(const run::RunPlace &place, const tools::IreeInstallation &iree,
             const std::filesystem::path &workspace, bool asJson);

} // namespace tilescope::cli
