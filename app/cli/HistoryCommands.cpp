// tilescope-cli history, compare and report: the tries the workspace's
// history holds, listed and filtered (text, JSON or CSV); two of them side
// by side (their configs field by field, their resources and their times);
// and the JSON report of one file's tuning with its tries.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "core/edit/ConfigDiff.h"
#include "core/export/JsonText.h"
#include "core/tries/History.h"
#include "core/tries/Report.h"
#include "core/tries/TryComparison.h"
#include "core/util/Printable.h"

#include <QCommandLineParser>
#include <algorithm>

#include <cstdio>
#include <iostream>

using nlohmann::json;

namespace tilescope::cli {
namespace {

std::string timeText(const std::optional<double> &microseconds) {
  if (!microseconds)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f us", *microseconds);
  return text;
}

std::string scalarText(const std::optional<long long> &value) {
  return value ? std::to_string(*value) : "-";
}

// Whether the workspace has a history to read: a read never makes one (a
// mistyped --workspace would otherwise leave a folder and an empty
// database behind). Says so on stderr where it has none.
bool hasHistory(const QCommandLineParser &parser, const char *command) {
  const std::filesystem::path file = tries::historyFile(workspaceOf(parser));
  std::error_code error;
  if (std::filesystem::exists(file, error))
    return true;
  std::cerr << "tilescope-cli " << command << ": no history at "
            << file.string()
            << " (nothing has run with this workspace; --workspace names "
               "another)\n";
  return false;
}

// The tries as JSON, one object each.
void printJson(const std::vector<tries::TryRecord> &records) {
  json out = json::array();
  for (const tries::TryRecord &record : records)
    out.push_back(tries::toJson(record));
  std::cout << exporting::jsonText(out, 2) << "\n";
}

// The tries in two lines each; none: where none are, and for a sweep asked
// by a name it does not have, the names there are. What a bundle brought
// back is text, not terminal commands.
void printListing(const tries::History &history,
                  const std::vector<tries::TryRecord> &records,
                  const tries::HistoryFilter &filter) {
  for (const tries::TryRecord &r : records)
    std::cout << "#" << r.id << "  " << r.createdAt << "  " << r.kind << "  "
              << printable(r.outcome) << "  " << timeText(r.medianMicroseconds)
              << "  "
              << printable(
                     std::filesystem::path(r.document).filename().string())
              << (r.op.empty() ? "" : " --op " + printable(r.op)) << "  "
              << printable(r.target)
              << (r.device.empty() ? "" : " on " + printable(r.device))
              << "\n    " << printable(r.summary) << "\n";
  if (!records.empty())
    return;
  if (filter.sweep.empty()) {
    std::cout << "no tries in " << history.file().string() << "\n";
    return;
  }
  // A sweep is named, not numbered: say which names there are.
  tries::HistoryFilter every;
  every.limit = 2000;
  std::vector<std::string> names;
  if (auto all = history.list(every))
    for (const tries::TryRecord &r : *all)
      if (!r.sweep.empty() &&
          std::find(names.begin(), names.end(), r.sweep) == names.end())
        names.push_back(r.sweep);
  std::cout << "no tries of a sweep named \"" << filter.sweep << "\" in "
            << history.file().string() << " (--sweep takes a sweep's name, "
            << "as `sweep` prints it in quotes)";
  for (size_t i = 0; i < names.size() && i < 10; ++i)
    std::cout << (i ? "\n  \"" : "; the latest sweeps:\n  \"") << names[i]
              << "\"";
  std::cout << "\n";
}

} // namespace

int history(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli history: the tries (compiles, resource reads, timed and "
      "checked runs) in the workspace's history, newest first.");
  const QCommandLineOption documentOption("document", "Only tries of FILE.",
                                          "FILE");
  const QCommandLineOption kindOption(
      "kind", "Only compile, resources, bench or verify tries.", "KIND");
  const QCommandLineOption outcomeOption(
      "outcome",
      QString::fromStdString(
          "Only tries that ended so: " + tries::tryOutcomeList() + "."),
      "OUTCOME");
  const QCommandLineOption sweepOption(
      "sweep",
      "Only the tries of the sweep named NAME, as `sweep` prints it in quotes "
      "(each try's sweep is in --json).",
      "NAME");
  const QCommandLineOption limitOption("limit", "At most N tries.", "N");
  const QCommandLineOption csvOption("csv", "Print CSV.");
  const QCommandLineOption showOption("show", "Everything about try ID.", "ID");
  parser.addOptions({documentOption, kOpOption, kindOption, outcomeOption,
                     sweepOption, limitOption, showOption, csvOption,
                     kJsonOption, kWorkspaceOption});
  if (!parseCommandLine(parser, arguments, "history"))
    return kExitUsage;
  if (const std::string outcome = parser.value(outcomeOption).toStdString();
      !outcome.empty() && !tries::isTryOutcome(outcome)) {
    std::cerr << "tilescope-cli history: --outcome " << printable(outcome)
              << " is no outcome; one of " << tries::tryOutcomeList() << "\n";
    return kExitUsage;
  }
  if (!hasHistory(parser, "history")) {
    // An empty listing where a list was asked for; no try to show.
    if (parser.isSet(showOption))
      return kExitBadInput;
    if (parser.isSet(kJsonOption))
      std::cout << "[]\n";
    else if (parser.isSet(csvOption))
      std::cout << tries::historyCsv({});
    return kExitOk;
  }
  auto history = tries::History::open(tries::historyFile(workspaceOf(parser)));
  if (!history) {
    std::cerr << "tilescope-cli history: " << history.error() << "\n";
    return kExitBadInput;
  }
  if (parser.isSet(showOption)) {
    bool ok = false;
    const long long id = parser.value(showOption).toLongLong(&ok);
    auto record =
        ok ? history->get(id)
           : Result<tries::TryRecord>(Error{"--show: expected an id"});
    if (!record) {
      std::cerr << "tilescope-cli history: " << record.error() << "\n";
      return kExitUsage;
    }
    std::cout << exporting::jsonText(tries::toJson(*record), 2) << "\n";
    return kExitOk;
  }
  tries::HistoryFilter filter;
  if (parser.isSet(documentOption))
    filter.document =
        std::filesystem::absolute(parser.value(documentOption).toStdString());
  filter.op = parser.value(kOpOption).toStdString();
  filter.kind = parser.value(kindOption).toStdString();
  filter.outcome = parser.value(outcomeOption).toStdString();
  filter.sweep = parser.value(sweepOption).toStdString();
  auto limit = countOf(parser, limitOption, 0, 0, 1'000'000'000);
  if (!limit)
    return usageError("history", limit.error());
  filter.limit = *limit;
  auto records = history->list(filter);
  if (!records) {
    std::cerr << "tilescope-cli history: " << records.error() << "\n";
    return kExitBadInput;
  }
  if (parser.isSet(csvOption))
    std::cout << tries::historyCsv(*records);
  else if (parser.isSet(kJsonOption))
    printJson(*records);
  else
    printListing(*history, *records, filter);
  return kExitOk;
}

int compare(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli compare: two tries of the history side by side: how "
      "their configs differ field by field, their resources per kernel and "
      "their times.");
  parser.addOptions({kJsonOption, kWorkspaceOption});
  parser.addPositionalArgument("A", "A try id (see tilescope-cli history).");
  parser.addPositionalArgument("B", "Another try id.");
  if (!parseCommandLine(parser, arguments, "compare"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 2) {
    std::cerr << "tilescope-cli compare: expected two try ids\n";
    return kExitUsage;
  }
  // Without a history no try is there: each id is named as missing, and
  // none is made.
  const bool any = hasHistory(parser, "compare");
  auto history =
      any ? tries::History::open(tries::historyFile(workspaceOf(parser)))
          : Result<tries::History>(Error{"no history"});
  if (any && !history) {
    std::cerr << "tilescope-cli compare: " << history.error() << "\n";
    return kExitBadInput;
  }
  // Every argument is looked at, so one run names every try that is wrong.
  std::vector<tries::TryRecord> tries;
  int exitCode = kExitOk;
  for (const QString &argument : parser.positionalArguments()) {
    bool ok = false;
    const long long id = argument.toLongLong(&ok);
    auto record =
        !ok ? Result<tries::TryRecord>(
                  Error{"'" + argument.toStdString() + "' is not a try id"})
        : any ? history->get(id)
              : Result<tries::TryRecord>(Error{"no try " + std::to_string(id)});
    if (!record) {
      std::cerr << "tilescope-cli compare: " << record.error() << "\n";
      // Not a number is a usage error; a number with no try, bad input.
      if (!ok)
        exitCode = kExitUsage;
      else if (exitCode == kExitOk)
        exitCode = kExitBadInput;
      continue;
    }
    tries.push_back(std::move(*record));
  }
  if (exitCode != kExitOk)
    return exitCode;
  const tries::TryRecord &a = tries[0], &b = tries[1];
  tries::TryComparison comparison = tries::compareTries(a, b);
  comparison.instructions = tries::compareInstructions(a, b);
  if (parser.isSet(kJsonOption)) {
    std::cout << exporting::jsonText(tries::toJson(comparison, a, b), 2)
              << "\n";
    return kExitOk;
  }
  for (const tries::TryRecord *r : {&a, &b})
    std::cout << (r == &a ? "A" : "B") << ": try " << r->id << ", " << r->kind
              << " of "
              << std::filesystem::path(r->document).filename().string()
              << " for " << r->target << ", " << r->outcome << " ("
              << r->createdAt << ")\n";
  std::cout << "configs:\n";
  if (comparison.configs.empty())
    std::cout << "  the same\n";
  else
    printDifferences(comparison.configs, std::cout);
  std::cout << "resources:\n";
  if (comparison.kernels.empty())
    std::cout << "  none to compare\n";
  for (const tries::KernelComparison &kernel : comparison.kernels) {
    std::cout << "  " << kernel.kernel << "\n";
    for (const tries::ResourcePair &pair : kernel.resources) {
      const std::string before = scalarText(pair.a), after = scalarText(pair.b);
      std::cout << "    " << pair.key << ": " << before;
      if (before != after)
        std::cout << " -> " << after;
      std::cout << "\n";
    }
  }
  // The instructions of a pass of the K loop (and before and after it),
  // where both tries' folders hold the kernel's assembly.
  for (const tries::KernelInstructions &kernel : comparison.instructions) {
    std::cout << "instructions of " << kernel.kernel << ":\n";
    for (const tries::InstructionCountPair &pair : kernel.counts) {
      std::cout << "    " << pair.region << ", " << pair.instructionClass
                << ": " << pair.a;
      if (pair.a != pair.b)
        std::cout << " -> " << pair.b;
      std::cout << "\n";
    }
  }
  std::cout << "time: " << timeText(a.medianMicroseconds) << " -> "
            << timeText(b.medianMicroseconds);
  if (comparison.times)
    std::cout << ": " << comparison.times->text;
  std::cout << "\n";
  return kExitOk;
}

int report(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli report: the JSON report of a file's tuning: its "
      "dispatches, each root op's configs with the problems the rules find, "
      "the edits against --original, and the file's tries in the history "
      "(what the window's File > Export report writes).");
  const QCommandLineOption originalOption(
      "original", "The file as it was before the edits (default: FILE).",
      "FILE");
  parser.addOptions({originalOption, kWorkspaceOption, kIreeOption});
  parser.addPositionalArgument("FILE", "An IREE MLIR file.");
  if (!parseCommandLine(parser, arguments, "report"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 1) {
    std::cerr << "tilescope-cli report: expected one FILE\n";
    return kExitUsage;
  }
  int code = kExitOk;
  auto edited = openJobFile(parser, code);
  if (!edited) {
    std::cerr << "tilescope-cli report: " << edited.error() << "\n";
    return code;
  }
  document::Document original = *edited;
  if (parser.isSet(originalOption)) {
    auto opened = openDocument(parser.value(originalOption).toStdString(),
                               workbenchOf(parser), code);
    if (!opened) {
      std::cerr << "tilescope-cli report: " << opened.error() << "\n";
      return code;
    }
    original = std::move(*opened);
  }
  if (!hasHistory(parser, "report"))
    return kExitBadInput;
  auto history = tries::History::open(tries::historyFile(workspaceOf(parser)));
  if (!history) {
    std::cerr << "tilescope-cli report: " << history.error() << "\n";
    return kExitBadInput;
  }
  tries::HistoryFilter filter;
  filter.document = edited->path.string();
  auto tries = history->list(filter);
  if (!tries) {
    std::cerr << "tilescope-cli report: " << tries.error() << "\n";
    return kExitBadInput;
  }
  std::cout << exporting::jsonText(
                   tries::tuningReport(original, *edited, *tries), 2)
            << "\n";
  return kExitOk;
}

} // namespace tilescope::cli
