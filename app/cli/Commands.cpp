#include "app/cli/Commands.h"

#include <QCommandLineParser>
#include <QRegularExpression>

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
    // Qt names the program alone, by the path it was started with
    // ("Usage: /opt/bin/tilescope-cli [options] FILE"): the line a person
    // copies names the tool and the command.
    QString help = parser.helpText();
    help.replace(QRegularExpression("^Usage: \\S+ "),
                 "Usage: tilescope-cli " + command + " ");
    std::cout << help.toStdString() << "\n" << kExitCodesHelp;
    std::exit(kExitOk);
  }
  return true;
}

} // namespace tilescope::cli
