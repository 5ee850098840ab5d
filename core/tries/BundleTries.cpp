#include "core/tries/BundleTries.h"

#include "core/config/configs/GpuTarget.h"
#include "core/export/ConfigJson.h"
#include "core/layout/CostModel.h"
#include "core/service/UntrustedFiles.h"
#include "core/tries/JobJson.h"
#include "core/util/Files.h"

#include <algorithm>
#include <limits>
#include <map>

using nlohmann::json;
namespace fs = std::filesystem;

namespace tilescope::tries {
namespace {

std::string finishedOf(const fs::path &bundle, const std::string &id) {
  const fs::path file = bundle / "results" / (id + ".done");
  auto done =
      service::readUntrustedFile(file, service::kUntrustedFileBytes, bundle);
  if (!done)
    return "";
  auto status = service::parseUntrustedJson(*done, file);
  return status ? service::stringField(*status, "finished") : "";
}

// A field of a JSON object (a manifest's `about`), or null
// where it has none; its type is the caller's to check.
json aboutField(const json &about, const char *key) {
  const auto it = about.find(key);
  return it != about.end() ? *it : json();
}

} // namespace

std::string driverForTarget(const std::string &target) {
  if (target.rfind("cuda", 0) == 0)
    return "cuda";
  if (target.rfind("rocm", 0) == 0 || target.rfind("hip", 0) == 0)
    return "hip";
  if (target.rfind("llvm-cpu", 0) == 0)
    return "local-task";
  return "";
}

Result<run::BundleModule> bundleModuleOf(const TryRecord &record) {
  if (!record.compile || record.compile->files.module.empty()) {
    if (record.imported && record.imported->compiledIn)
      return Error{"try " + std::to_string(record.id) + " is a timing of try " +
                   std::to_string(*record.imported->compiledIn) +
                   "'s module, not a compile: bundle --try " +
                   std::to_string(*record.imported->compiledIn)};
    return Error{"try " + std::to_string(record.id) +
                 " has no compiled module (" + record.outcome + ")"};
  }
  const std::string driver = driverForTarget(record.target);
  if (driver.empty())
    return Error{"try " + std::to_string(record.id) + " is for " +
                 record.target + ", which no IREE driver runs"};
  run::BundleModule m;
  m.id = "try-" + std::to_string(record.id);
  m.module = record.compile->files.module;
  m.device = driver;
  if (auto input = readTextFile(record.compile->files.input))
    m.dispatchBenchmark = run::isDispatchBenchmarkText(*input);
  m.about = {{"try", record.id},
             {"document", record.document},
             {"op", record.op},
             {"target", record.target},
             {"sweep", record.sweep},
             {"candidate", record.candidate},
             {"configs", toJson(record.configs)}};
  if (record.prediction)
    m.about["prediction"] = exporting::toJson(*record.prediction);
  if (record.resources)
    m.about["resources"] = toJson(*record.resources);
  return m;
}

Result<TryRecord> bundledTryOf(const History &history, long long id) {
  auto record = history.get(id);
  if (!record || record->compile)
    return record;
  if (record->imported && record->imported->compiledIn)
    return history.get(*record->imported->compiledIn);
  return record;
}

Result<TryKernelFiles> kernelFilesOf(const History &history, long long id) {
  auto record = history.get(id);
  if (!record)
    return Error{record.error()};
  auto compiled = bundledTryOf(history, id);
  if (!compiled)
    return Error{"try " + std::to_string(id) + " was imported from " +
                 (record->imported ? record->imported->bundle
                                   : std::string("a bundle")) +
                 ": the try that compiled its module: " + compiled.error()};
  TryKernelFiles files;
  files.compiledIn = compiled->id;
  files.folder = compiled->directory;
  // A bundle's results, or the try's own timed run (TryJob's bundle in
  // its folder's run/, its one module "module").
  const fs::path counters =
      record->imported ? fs::path(record->imported->bundle) / "results" /
                             (record->imported->module + ".source.csv")
                       : files.folder / "run" / "results" / "module.source.csv";
  std::error_code missing;
  // A bundle's results are another machine's, and a timed run's come from
  // wherever it ran: a file a link leads out of them is not read.
  const fs::path within = record->imported ? fs::path(record->imported->bundle)
                                           : files.folder / "run";
  if (fs::is_regular_file(counters, missing) &&
      service::insideFolder(counters, within)) {
    files.sourceCounters = counters;
    files.sourceCountersWithin = within;
  }
  return files;
}

Result<std::vector<TryRecord>> compiledTriesOfSweep(const History &history,
                                                    const std::string &sweep) {
  HistoryFilter filter;
  filter.sweep = sweep;
  auto listed = history.list(filter); // newest first
  if (!listed)
    return Error{listed.error()};
  std::vector<TryRecord> tries;
  std::vector<std::string> seen;
  for (TryRecord &r : *listed)
    if ((r.outcome == "ok" || r.outcome == "cannot-run-here") && r.compile &&
        std::find(seen.begin(), seen.end(), r.candidate) == seen.end()) {
      seen.push_back(r.candidate);
      tries.push_back(std::move(r));
    }
  if (tries.empty())
    return Error{"no compiled try of sweep \"" + sweep + "\" in " +
                 history.file().string()};
  return tries;
}

Result<fs::path> bundleTries(const std::vector<TryRecord> &tries,
                             const fs::path &directory,
                             const tools::IreeInstallation &iree) {
  std::vector<run::BundleModule> modules;
  for (const TryRecord &r : tries) {
    auto module = bundleModuleOf(r);
    if (!module)
      return Error{module.error()};
    if (std::none_of(
            modules.begin(), modules.end(),
            [&](const run::BundleModule &m) { return m.id == module->id; }))
      modules.push_back(std::move(*module));
  }
  run::BundleWriteOptions options;
  options.iree = &iree;
  return writeRunBundle(directory, modules, options);
}

std::vector<OrderAgreement>
orderAgreements(const std::vector<ImportedModule> &modules) {
  // A module compiled from the whole file (`resources FILE`, no --op)
  // names no op: it joins the sweep of the same file and target where the
  // bundle holds one op of it. The one op of each file and target, found
  // once ("" where there are several).
  std::map<std::pair<std::string, std::string>, std::string> onlyOp;
  for (const ImportedModule &o : modules) {
    if (o.op.empty())
      continue;
    auto [it, added] = onlyOp.try_emplace({o.document, o.target}, o.op);
    if (!added && it->second != o.op)
      it->second.clear();
  }
  auto opOf = [&](const ImportedModule &m) {
    if (!m.op.empty())
      return m.op;
    const auto it = onlyOp.find({m.document, m.target});
    return it == onlyOp.end() ? std::string() : it->second;
  };
  std::vector<OrderAgreement> out;
  std::vector<std::vector<const ImportedModule *>> groups;
  for (const ImportedModule &m : modules) {
    if (!m.timing.timed() || !m.predictedMicroseconds)
      continue;
    const std::string op = opOf(m);
    auto same = std::find_if(out.begin(), out.end(), [&](const auto &o) {
      return o.document == m.document && o.op == op && o.target == m.target;
    });
    if (same == out.end()) {
      OrderAgreement a;
      a.document = m.document;
      a.op = op;
      a.target = m.target;
      out.push_back(std::move(a));
      groups.emplace_back();
      same = out.end() - 1;
    }
    groups[static_cast<size_t>(same - out.begin())].push_back(&m);
  }
  auto name = [](const ImportedModule &m) {
    return m.candidate.empty() ? m.id + " (the config as compiled)"
                               : m.candidate;
  };
  std::vector<OrderAgreement> kept;
  for (size_t g = 0; g < out.size(); ++g) {
    const auto &group = groups[g];
    if (group.size() < 3)
      continue;
    std::vector<double> predicted, measured, profiled;
    for (const ImportedModule *m : group) {
      predicted.push_back(*m->predictedMicroseconds);
      measured.push_back(m->timing.perDispatch->median);
      if (m->timing.profile && m->timing.profile->kernelMicroseconds > 0)
        profiled.push_back(m->timing.profile->kernelMicroseconds);
    }
    auto fastestOf = [](const std::vector<double> &times) {
      return static_cast<size_t>(std::min_element(times.begin(), times.end()) -
                                 times.begin());
    };
    const size_t first = fastestOf(predicted);
    OrderAgreement a = out[g];
    a.modules = static_cast<int>(group.size());
    a.rankCorrelation = layout::rankCorrelation(predicted, measured);
    const size_t fastest = fastestOf(measured);
    a.predictedFirstOverFastest = measured[first] / measured[fastest];
    a.predictedFirst = name(*group[first]);
    a.fastest = name(*group[fastest]);
    if (profiled.size() == group.size()) {
      a.profiledRankCorrelation = layout::rankCorrelation(predicted, profiled);
      const size_t quickest = fastestOf(profiled);
      a.profiledFirstOverFastest = profiled[first] / profiled[quickest];
      a.profiledFastest = name(*group[quickest]);
    }
    kept.push_back(std::move(a));
  }
  return kept;
}

Result<ImportReport> importBundleResults(const fs::path &bundle,
                                         History &history) {
  auto manifest = run::readBundleManifest(bundle);
  if (!manifest)
    return Error{manifest.error()};
  ImportReport report;
  report.bundle = fs::absolute(bundle);
  const fs::path indexFile = bundle / "results" / "results.json";
  if (auto index = service::readUntrustedFile(
          indexFile, service::kUntrustedFileBytes, bundle))
    if (auto parsed = service::parseUntrustedJson(*index, indexFile))
      report.host = service::stringField(*parsed, "host");
  for (const run::BundleModule &m : manifest->modules) {
    ImportedModule out;
    out.id = m.id;
    out.timing = run::readModuleTiming(bundle, m.id);
    const json &about = m.about;
    out.sweep = service::stringField(about, "sweep");
    out.candidate = service::stringField(about, "candidate");
    // The manifest's copy of the module's details, each where it has its
    // type; the try the module came from replaces them where this workspace
    // holds it.
    TriedConfigs configs = configsFromJson(aboutField(about, "configs"));
    std::optional<service::ResourceReport> resources;
    if (const json value = aboutField(about, "resources"); value.is_object())
      resources = resourceReportFromJson(value);
    std::optional<layout::CostPrediction> prediction =
        costPredictionFromJson(aboutField(about, "prediction"));
    TryRecord row;
    row.document = service::stringField(about, "document");
    row.op = service::stringField(about, "op");
    row.target = service::stringField(about, "target");
    out.document = row.document;
    out.op = row.op;
    out.target = row.target;
    // The compiled try, only where this history holds it for the same
    // document (a bundle from elsewhere names tries of another history).
    if (auto id = service::integerField(about, "try", 1,
                                        std::numeric_limits<long long>::max()))
      if (auto original = history.get(*id);
          original && original->document == row.document) {
        out.compiledIn = *id;
        configs = original->configs;
        resources = original->resources;
        prediction = original->prediction;
      }
    if (prediction)
      out.predictedMicroseconds = prediction->microseconds;
    if (out.timing.status == "not-run") {
      out.error = "not run yet (no results/" + m.id + ".done)";
      report.modules.push_back(std::move(out));
      continue;
    }
    BundleOrigin origin;
    origin.bundle = fs::absolute(bundle).string();
    origin.created = manifest->created;
    origin.module = m.id;
    origin.finished = finishedOf(bundle, m.id);
    origin.runOn = report.host;
    origin.compiledIn = out.compiledIn;
    HistoryFilter filter;
    filter.document = row.document;
    filter.op = row.op;
    if (auto earlier = history.list(filter))
      for (const TryRecord &r : *earlier)
        if (r.imported && r.imported->sameResults(origin)) {
          out.alreadyImported = true;
          out.imported = r.id;
        }
    TriedBench bench = triedBenchOf(out.timing);
    if (out.timing.profile) {
      const isa::KernelResources kernel =
          resources && !resources->kernels.empty() ? resources->kernels.front()
                                                   : isa::KernelResources{};
      ProfileInputs inputs;
      inputs.reading = &*out.timing.profile;
      inputs.resources = kernel.backend.empty() ? nullptr : &kernel;
      inputs.prediction = prediction ? &*prediction : nullptr;
      inputs.perDispatch =
          out.timing.perDispatch ? &*out.timing.perDispatch : nullptr;
      if (!kernel.arch.empty())
        if (auto target = config::builtinTarget(kernel.arch))
          inputs.peakMemoryBytesPerSecond = target->peakMemoryBytesPerSecond;
      out.besideTilescope = profileBesideTilescope(inputs);
      bench.besideTilescope = out.besideTilescope;
    }
    if (!out.alreadyImported) {
      row.kind = "bench";
      row.device = out.timing.device;
      row.outcome = out.timing.timed() ? "ok" : "run-failed";
      row.summary = out.timing.summary();
      if (out.timing.timed())
        row.medianMicroseconds = out.timing.perDispatch->median;
      row.directory = (report.bundle / "results").string();
      row.sweep = out.sweep;
      row.candidate = out.candidate;
      row.configs = std::move(configs);
      row.resources = std::move(resources);
      row.prediction = std::move(prediction);
      row.bench = std::move(bench);
      row.imported = std::move(origin);
      auto added = history.add(std::move(row));
      if (!added)
        return Error{added.error()};
      out.imported = *added;
    }
    report.modules.push_back(std::move(out));
  }

  report.orders = orderAgreements(report.modules);
  return report;
}

json toJson(const ImportReport &report) {
  json modules = json::array();
  for (const ImportedModule &m : report.modules) {
    json out = {{"id", m.id},
                {"sweep", m.sweep},
                {"candidate", m.candidate},
                {"already_imported", m.alreadyImported},
                {"timing", toJson(m.timing)}};
    if (m.compiledIn)
      out["compiled_in"] = *m.compiledIn;
    if (m.imported)
      out["try"] = *m.imported;
    if (m.predictedMicroseconds)
      out["predicted_us"] = *m.predictedMicroseconds;
    if (!m.besideTilescope.empty())
      out["beside_tilescope"] = toJson(m.besideTilescope);
    if (!m.error.empty())
      out["error"] = m.error;
    modules.push_back(out);
  }
  json out = {{"bundle", report.bundle.string()},
              {"host", report.host},
              {"modules", modules}};
  json orders = json::array();
  for (const OrderAgreement &a : report.orders) {
    orders.push_back(
        {{"document", a.document},
         {"op", a.op},
         {"target", a.target},
         {"modules", a.modules},
         {"rank_correlation", a.rankCorrelation},
         {"predicted_first_over_fastest", a.predictedFirstOverFastest},
         {"predicted_first", a.predictedFirst},
         {"fastest", a.fastest}});
    if (a.profiledRankCorrelation)
      orders.back()["profiled"] = {
          {"rank_correlation", *a.profiledRankCorrelation},
          {"predicted_first_over_fastest", *a.profiledFirstOverFastest},
          {"fastest", a.profiledFastest}};
  }
  out["orders"] = orders;
  return out;
}

} // namespace tilescope::tries
