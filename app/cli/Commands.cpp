#include "app/cli/Commands.h"

#include <QCommandLineParser>

#include <iostream>

namespace tilescope::cli {

bool parseCommandLine(QCommandLineParser &parser, const QStringList &arguments,
                      const QString &command) {
  if (parser.applicationDescription().isEmpty())
    parser.setApplicationDescription("tilescope-cli " + command);
  parser.addHelpOption();
  if (!parser.parse(arguments)) {
    std::cerr << "tilescope-cli " << command.toStdString() << ": "
              << parser.errorText().toStdString() << "\n";
    return false;
  }
  if (parser.isSet("help")) {
    std::cout << parser.helpText().toStdString() << "\n" << kExitCodesHelp;
    std::exit(kExitOk);
  }
  return true;
}

} // namespace tilescope::cli
