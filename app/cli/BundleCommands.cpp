// tilescope-cli bundle and import-results: compiled tries carried to a
// machine with the GPU (a folder with the modules, the runtime tools and
// one run.sh), and what run.sh measured there brought back into the
// history (core/tries/BundleTries).
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "app/common/IreeSettings.h"
#include "core/export/JsonText.h"
#include "core/tries/BundleTries.h"
#include "core/util/Printable.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

using nlohmann::json;

namespace tilescope::cli {
namespace {

std::string microseconds(const std::optional<run::TimingStats> &t) {
  if (!t)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", t->median);
  return text;
}

std::string percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", value);
  return text;
}

} // namespace

int bundle(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli bundle: write a run bundle of compiled tries: a folder "
      "holding their modules, the pinned runtime's iree-benchmark-module and "
      "iree-run-module, a manifest of what each module is, and one run.sh "
      "that times every module per dispatch (and profiles it where ncu or "
      "rocprofv3 is installed) on whatever machine it is copied to. Bring "
      "the folder back and `tilescope-cli import-results DIR` puts the times "
      "into the history against their tries.");
  const QCommandLineOption tryOption(
      "try", "A try of the history (repeatable).", "ID");
  const QCommandLineOption sweepOption(
      "sweep", "Every compiled try of the sweep of this name (repeatable).",
      "NAME");
  const QCommandLineOption outOption({"o", "output", "out"},
                                     "The bundle folder to write.", "DIR");
  parser.addOptions({tryOption, sweepOption, outOption, kWorkspaceOption,
                     kJsonOption, kIreeOption});
  if (!parseCommandLine(parser, arguments, "bundle"))
    return kExitUsage;
  if (!parser.isSet(outOption))
    return usageError("bundle", "-o DIR: where to write the bundle");
  if (!parser.isSet(tryOption) && !parser.isSet(sweepOption))
    return usageError("bundle", "name the tries: --try ID or --sweep NAME");
  auto history = tries::History::open(tries::historyFile(workspaceOf(parser)));
  if (!history) {
    std::cerr << "tilescope-cli bundle: " << history.error() << "\n";
    return kExitBadInput;
  }
  std::vector<tries::TryRecord> tries;
  for (const QString &text : parser.values(tryOption)) {
    bool ok = false;
    const long long id = text.toLongLong(&ok);
    auto record = ok ? tries::bundledTryOf(*history, id)
                     : Result<tries::TryRecord>(Error{"not a try id"});
    if (!record) {
      std::cerr << "tilescope-cli bundle: --try " << text.toStdString() << ": "
                << record.error() << "\n";
      return kExitBadInput;
    }
    tries.push_back(std::move(*record));
  }
  for (const QString &name : parser.values(sweepOption)) {
    auto swept = tries::compiledTriesOfSweep(*history, name.toStdString());
    if (!swept) {
      std::cerr << "tilescope-cli bundle: " << swept.error() << "\n";
      return kExitBadInput;
    }
    tries.insert(tries.end(), swept->begin(), swept->end());
  }
  auto installation = workbenchOf(parser).iree();
  if (!installation) {
    std::cerr << "tilescope-cli bundle: " << installation.error() << "\n";
    return kExitIreeUnavailable;
  }
  auto written = tries::bundleTries(
      tries, parser.value(outOption).toStdString(), *installation);
  if (!written) {
    std::cerr << "tilescope-cli bundle: " << written.error() << "\n";
    return kExitFailure;
  }
  auto manifest = run::readBundleManifest(*written);
  const std::vector<run::BundleModule> modules =
      manifest ? manifest->modules : std::vector<run::BundleModule>{};
  if (parser.isSet(kJsonOption)) {
    json ids = json::array();
    for (const run::BundleModule &m : modules)
      ids.push_back(m.id);
    std::cout << exporting::jsonText(
                     {{"bundle", written->string()}, {"modules", ids}}, 2)
              << "\n";
    return kExitOk;
  }
  std::cout << "run bundle of " << modules.size() << " module"
            << (modules.size() == 1 ? "" : "s") << " in " << written->string()
            << "\n  on the GPU machine: " << (*written / "run.sh").string()
            << "  (TILESCOPE_DEVICE=cuda://1 picks a device; "
               "TILESCOPE_PROFILE=off skips the profiler)\n"
            << "  back here: tilescope-cli import-results " << written->string()
            << "\n";
  return kExitOk;
}

int importResults(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli import-results: read what a run bundle's run.sh "
      "measured and add each module's time (and profile) to the history as "
      "a bench row of the try it came from: the same file, op, target, sweep "
      "and candidate, so the sweep ranks by it. Modules imported before are "
      "left as they are. Prints each module's per-dispatch and "
      "per-submission times, the profiler beside them where it ran, and how "
      "the cost model's order compares with the measured one.");
  parser.addOptions({kWorkspaceOption, kJsonOption});
  parser.addPositionalArgument("DIR", "A run bundle folder after run.sh.");
  if (!parseCommandLine(parser, arguments, "import-results"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 1)
    return usageError("import-results", "expected one bundle folder");
  auto history = tries::History::open(tries::historyFile(workspaceOf(parser)));
  if (!history) {
    std::cerr << "tilescope-cli import-results: " << history.error() << "\n";
    return kExitBadInput;
  }
  auto report = tries::importBundleResults(
      parser.positionalArguments().front().toStdString(), *history);
  if (!report) {
    std::cerr << "tilescope-cli import-results: " << report.error() << "\n";
    return kExitBadInput;
  }
  bool failed = false;
  for (const tries::ImportedModule &m : report->modules)
    failed = failed || !m.timing.timed();
  if (parser.isSet(kJsonOption)) {
    std::cout << exporting::jsonText(tries::toJson(*report), 2) << "\n";
    return failed ? kExitFailure : kExitOk;
  }
  std::cout << "results of " << report->bundle.string()
            << (report->host.empty()
                    ? ""
                    : " (run on " + printable(report->host) + ")")
            << "\n";
  std::cout << "  module          try   per dispatch us  one per submission "
               "us  profiler us  diff    predicted us  candidate\n";
  for (const tries::ImportedModule &m : report->modules) {
    char row[256];
    const auto &t = m.timing;
    std::string profiler = "-", diff = "-";
    if (t.profile) {
      char p[32];
      std::snprintf(p, sizeof p, "%.3f", t.profile->kernelMicroseconds);
      profiler = p;
      if (t.perDispatch && t.profile->kernelMicroseconds > 0)
        diff = percent(100 *
                       (t.perDispatch->median - t.profile->kernelMicroseconds) /
                       t.profile->kernelMicroseconds);
    }
    char predicted[32] = "-";
    if (m.predictedMicroseconds)
      std::snprintf(predicted, sizeof predicted, "%.3f",
                    *m.predictedMicroseconds);
    std::snprintf(row, sizeof row,
                  "  %-14s %5s  %15s  %20s  %11s  %-6s  %12s  ", m.id.c_str(),
                  m.imported ? std::to_string(*m.imported).c_str() : "-",
                  microseconds(t.perDispatch).c_str(),
                  microseconds(t.perSubmission).c_str(), profiler.c_str(),
                  diff.c_str(), predicted);
    // The bundle's words (candidate names, why a module failed) are text.
    std::cout << row << printable(m.candidate);
    if (m.alreadyImported)
      std::cout << "  (imported before)";
    if (!t.timed())
      std::cout << "  " << printable(m.error.empty() ? t.summary() : m.error);
    std::cout << "\n";
    for (const tries::ProfileRow &r : m.besideTilescope)
      if (r.differs)
        std::cout << "    ! " << r.quantity << ": Tilescope " << r.tilescope
                  << ", profiler " << r.profiler << "\n";
    if (!t.profileError.empty())
      std::cout << "    profile: " << printable(t.profileError) << "\n";
    if (!t.sourceCounters.empty() && m.imported)
      std::cout << "    per-instruction counters: tilescope-cli isa "
                << *m.imported << "\n";
    if (!t.sourceCountersError.empty())
      std::cout << "    per-instruction counters: "
                << printable(t.sourceCountersError) << "\n";
  }
  for (const tries::OrderAgreement &a : report->orders) {
    char text[240];
    std::snprintf(text, sizeof text,
                  "predicted order against the measured one over %d modules "
                  "of %s (op %s, %s): rank correlation %.2f; the predicted "
                  "first runs at %.2fx the fastest's time\n",
                  a.modules,
                  std::filesystem::path(a.document).filename().string().c_str(),
                  a.op.c_str(), a.target.c_str(), a.rankCorrelation,
                  a.predictedFirstOverFastest);
    std::cout << text << "  predicted first: " << a.predictedFirst
              << "\n  fastest measured: " << a.fastest << "\n";
    if (a.profiledRankCorrelation) {
      std::snprintf(text, sizeof text,
                    "  against the profiler's kernel times (one launch, "
                    "caches flushed): rank correlation %.2f; the predicted "
                    "first runs at %.2fx the fastest's time\n",
                    *a.profiledRankCorrelation, *a.profiledFirstOverFastest);
      std::cout << text << "  fastest profiled: " << a.profiledFastest << "\n";
    }
  }
  return failed ? kExitFailure : kExitOk;
}

} // namespace tilescope::cli
