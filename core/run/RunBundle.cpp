#include "core/run/RunBundle.h"

#include "core/service/UntrustedFiles.h"
#include "core/util/Files.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

using nlohmann::json;
namespace fs = std::filesystem;

namespace tilescope::run {
namespace {

const char *kManifestFormat = "tilescope-run-bundle/1";

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

bool isFileName(const std::string &id) {
  if (id.empty() || id == "." || id == ".." || id.size() > 120)
    return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  });
}

std::string text(const char *pattern, double value) {
  char out[64];
  std::snprintf(out, sizeof out, pattern, value);
  return out;
}

Result<bool> copyFile(const fs::path &from, const fs::path &to) {
  std::error_code error;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
  if (error)
    return Error{"cannot copy " + from.string() + " to " + to.string() + ": " +
                 error.message()};
  return true;
}

std::optional<std::vector<service::BenchmarkMeasurement>>
measurementsIn(const fs::path &bundle, const fs::path &file) {
  auto content =
      service::readUntrustedFile(file, service::kUntrustedFileBytes, bundle);
  if (!content)
    return std::nullopt;
  auto measured = service::parseBenchmarkJson(*content);
  if (!measured)
    return std::nullopt;
  return std::move(*measured);
}

} // namespace

std::optional<TimingStats>
timingStats(const std::vector<service::BenchmarkMeasurement> &measurements,
            std::string *benchmark) {
  std::string name;
  std::vector<double> times;
  for (const service::BenchmarkMeasurement &m : measurements) {
    if (m.runType != "iteration")
      continue;
    if (name.empty())
      name = m.name;
    // A time that cannot be a kernel's (not positive, not finite, or past
    // an hour) is no measurement.
    const double t = m.realTimeMicroseconds();
    if (m.name == name && std::isfinite(t) && t > 0 && t < 3.6e9)
      times.push_back(t);
  }
  if (times.empty())
    return std::nullopt;
  if (benchmark)
    *benchmark = name;
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  TimingStats stats;
  stats.repetitions = static_cast<int>(n);
  stats.median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  stats.minimum = times.front();
  stats.maximum = times.back();
  double mean = 0;
  for (double t : times)
    mean += t;
  mean /= static_cast<double>(n);
  double variance = 0;
  for (double t : times)
    variance += (t - mean) * (t - mean);
  stats.spread = n > 1 ? std::sqrt(variance / static_cast<double>(n - 1)) : 0;
  return stats;
}

std::string driverOf(const std::string &device) {
  const size_t scheme = device.find("://");
  return scheme == std::string::npos ? device : device.substr(0, scheme);
}

bool isDispatchBenchmarkText(const std::string &text) {
  return text.find("iree.benchmark = \"dispatch\"") != std::string::npos;
}

Result<fs::path> writeRunBundle(const fs::path &directory,
                                const std::vector<BundleModule> &modules,
                                const BundleWriteOptions &options) {
  if (modules.empty())
    return Error{"a run bundle needs at least one module"};
  std::error_code error;
  fs::create_directories(directory, error);
  if (error)
    return Error{"cannot make the bundle folder " + directory.string() + ": " +
                 error.message()};
  // "out/" names the folder "out": no trailing separator in what is
  // printed and written ("out//run.sh").
  fs::path root = fs::absolute(directory).lexically_normal();
  if (!root.has_filename() && root.has_parent_path())
    root = root.parent_path();
  json manifest = {{"format", kManifestFormat},
                   {"created", utcNow()},
                   {"standalone", options.standalone},
                   {"modules", json::array()}};
  std::string table = "# id\tmodule\tdriver\tkind (read by run.sh)\n";
  std::vector<std::string> seen;
  for (const BundleModule &m : modules) {
    if (!isFileName(m.id))
      return Error{"bundle module id \"" + m.id +
                   "\" is not a plain file name (letters, digits, '-', '_', "
                   "'.')"};
    if (std::find(seen.begin(), seen.end(), m.id) != seen.end())
      return Error{"bundle module id \"" + m.id + "\" appears twice"};
    seen.push_back(m.id);
    if (!fs::is_regular_file(m.module) &&
        (options.standalone || !options.moduleMayFollow))
      return Error{"module " + m.module.string() + " does not exist"};
    if (m.device.empty() || m.device.find_first_of("\t\n") != std::string::npos)
      return Error{"module " + m.id + " names no device to run on"};
    std::string where = fs::absolute(m.module).string();
    if (options.standalone) {
      fs::create_directories(root / "modules", error);
      const std::string inside = "modules/" + m.id + ".vmfb";
      auto copied = copyFile(m.module, root / inside);
      if (!copied)
        return Error{copied.error()};
      where = inside;
    }
    if (where.find_first_of("\t\n") != std::string::npos)
      return Error{"module path " + where + " holds a tab or a line break"};
    const std::string kind = m.dispatchBenchmark ? "dispatch" : "entry";
    table += m.id + "\t" + where + "\t" + m.device + "\t" + kind + "\n";
    manifest["modules"].push_back({{"id", m.id},
                                   {"module", where},
                                   {"device", m.device},
                                   {"kind", kind},
                                   {"about", m.about}});
  }
  if (options.standalone && options.carryTools) {
    if (!options.iree)
      return Error{"a standalone bundle needs the IREE whose runtime tools "
                   "it carries"};
    fs::create_directories(root / "tools", error);
    for (const char *tool :
         {tools::kIreeBenchmarkModule, tools::kIreeRunModule}) {
      auto path = options.iree->tool(tool);
      if (!path)
        return Error{path.error()};
      auto copied = copyFile(*path, root / "tools" / tool);
      if (!copied)
        return Error{copied.error()};
      fs::permissions(root / "tools" / tool,
                      fs::perms::owner_exec | fs::perms::group_exec |
                          fs::perms::others_exec,
                      fs::perm_options::add, error);
    }
    manifest["tools"] = "tools/";
  }
  for (const auto &[name, content] :
       {std::pair<std::string, std::string>{"modules.tsv", table},
        {"manifest.json", manifest.dump(2) + "\n"},
        {"run.sh", runBundleScript()}}) {
    auto written = writeFileAtomically(root / name, content);
    if (!written)
      return Error{written.error()};
  }
  fs::permissions(root / "run.sh",
                  fs::perms::owner_exec | fs::perms::group_exec |
                      fs::perms::others_exec,
                  fs::perm_options::add, error);
  return root;
}

Result<BundleManifest> readBundleManifest(const fs::path &bundle) {
  const fs::path file = bundle / "manifest.json";
  auto content =
      service::readUntrustedFile(file, service::kUntrustedFileBytes, bundle);
  if (!content)
    return Error{bundle.string() + " is not a run bundle: " + content.error()};
  auto parsed = service::parseUntrustedJson(*content, file);
  if (!parsed)
    return Error{parsed.error()};
  const json &manifest = *parsed;
  const std::string format = service::stringField(manifest, "format");
  if (!manifest.is_object() || format != kManifestFormat)
    return Error{file.string() + " is not a Tilescope run bundle manifest (" +
                 kManifestFormat + "): " +
                 (!manifest.is_object()
                      ? "its top level is a JSON " +
                            std::string(manifest.type_name()) +
                            ", not an object"
                  : format.empty()
                      ? std::string("it names no \"format\"")
                      : "its \"format\" is \"" + format.substr(0, 80) + "\"")};
  BundleManifest out;
  out.directory = bundle;
  out.created = service::stringField(manifest, "created");
  const auto modules = manifest.find("modules");
  if (modules == manifest.end() || !modules->is_array() || modules->empty())
    return Error{file.string() + " lists no modules (\"modules\" is not a "
                                 "non-empty list)"};
  // Every module is named by a plain file name: its results are read from
  // results/ID.*, and an id with a '/' or "..", or of another type, would
  // reach outside the bundle. Such a manifest is refused whole.
  for (size_t i = 0; i < modules->size(); ++i) {
    const json &entry = (*modules)[i];
    const std::string id = service::stringField(entry, "id");
    if (!entry.is_object() || !isFileName(id))
      return Error{file.string() + ": module " + std::to_string(i) +
                   (entry.is_object() && entry.contains("id")
                        ? "'s id " + entry["id"].dump().substr(0, 80)
                        : " has no id, or its id") +
                   " is not a plain file name (letters, digits, '-', '_', "
                   "'.'): the bundle is not read"};
    BundleModule m;
    m.id = id;
    m.module = service::stringField(entry, "module");
    m.device = service::stringField(entry, "device");
    m.dispatchBenchmark =
        service::stringField(entry, "kind", "dispatch") == "dispatch";
    const auto about = entry.find("about");
    if (about != entry.end() && about->is_object())
      m.about = *about;
    out.modules.push_back(std::move(m));
  }
  out.json = std::move(manifest);
  return out;
}

process::ProcessSpec runBundleCommand(const fs::path &bundle,
                                      const BundleRunOptions &options) {
  process::ProcessSpec spec;
  spec.program = "/bin/bash";
  spec.arguments = {(bundle / "run.sh").string()};
  auto &env = spec.environment;
  if (!options.tools.empty())
    env["TILESCOPE_TOOLS"] = options.tools.string();
  if (!options.device.empty())
    env["TILESCOPE_DEVICE"] = options.device;
  env["TILESCOPE_REPETITIONS"] = std::to_string(options.repetitions);
  env["TILESCOPE_TARGET_US"] = text("%g", options.targetMicroseconds);
  env["TILESCOPE_PROFILE"] = options.profile;
  env["TILESCOPE_TIMEOUT_S"] = std::to_string(options.toolTimeoutSeconds);
  if (!options.only.empty())
    env["TILESCOPE_ONLY"] = options.only;
  if (options.force)
    env["TILESCOPE_FORCE"] = "1";
  spec.timeout = options.timeout;
  spec.cancel = options.cancel;
  spec.onOutput = options.onOutput;
  return spec;
}

ModuleTiming readModuleTiming(const fs::path &bundle, const std::string &id) {
  ModuleTiming timing;
  timing.id = id;
  timing.status = "not-run";
  const fs::path results = bundle / "results";
  const fs::path doneFile = results / (id + ".done");
  std::error_code missing;
  if (!fs::exists(doneFile, missing))
    return timing;
  auto done = service::readUntrustedFile(doneFile, service::kUntrustedFileBytes,
                                         bundle);
  if (!done) {
    timing.status = "failed";
    timing.why = done.error();
    return timing;
  }
  auto parsed = service::parseUntrustedJson(*done, doneFile);
  if (!parsed || !parsed->is_object()) {
    timing.status = "failed";
    timing.why =
        parsed ? doneFile.string() + " is not a JSON object" : parsed.error();
    return timing;
  }
  const json &status = *parsed;
  // run.sh writes each field with its type; one of another type is read as
  // missing (a failed run), never thrown.
  timing.status = service::stringField(status, "status", "failed");
  if (timing.status != "ok" && timing.status != "failed")
    timing.status = "failed";
  timing.why = service::stringField(status, "why");
  timing.device = service::stringField(status, "device");
  timing.kind = service::stringField(status, "kind");
  const auto batch = service::integerField(status, "batch", 1, 1 << 20);
  timing.batch = static_cast<int>(batch.value_or(1));
  timing.targetMicroseconds =
      service::numberField(status, "target_us").value_or(0.0);
  if (auto probe = service::numberField(status, "probe_us");
      probe && *probe > 0)
    timing.probeMicroseconds = *probe;
  timing.profiler = service::stringField(status, "profiler");
  timing.profileError = service::stringField(status, "profile_why");
  timing.sourceCountersError = service::stringField(status, "counters_why");
  if (status.contains("batch") && !batch && timing.status == "ok") {
    timing.status = "failed";
    timing.why = doneFile.string() + ": batch " +
                 status["batch"].dump().substr(0, 40) +
                 " is not a count of dispatches (1 to 1048576)";
    return timing;
  }

  if (auto batched = measurementsIn(bundle, results / (id + ".batched.json"))) {
    timing.measurements = std::move(*batched);
    timing.perDispatch = timingStats(timing.measurements, &timing.benchmark);
  }
  if (timing.batch <= 1)
    timing.perSubmission = timing.perDispatch;
  else if (auto single =
               measurementsIn(bundle, results / (id + ".single.json")))
    timing.perSubmission = timingStats(*single);
  if (timing.status == "ok" && !timing.perDispatch) {
    timing.status = "failed";
    timing.why = "iree-benchmark-module reported no repetition";
  }

  if (timing.profiler == "ncu") {
    auto csv = service::readUntrustedFile(results / (id + ".ncu.csv"),
                                          service::kUntrustedFileBytes, bundle);
    auto reading = csv ? parseNsightComputeCsv(*csv)
                       : Result<ProfileReading>(Error{csv.error()});
    if (reading)
      timing.profile = std::move(*reading);
    else if (timing.profileError.empty())
      timing.profileError = reading.error();
    // Read later, by the views: only a file that is the bundle's own.
    if (const fs::path counters = results / (id + ".source.csv");
        timing.sourceCountersError.empty() &&
        fs::is_regular_file(counters, missing)) {
      if (auto inside = service::insideFolder(counters, bundle); inside)
        timing.sourceCounters = counters;
      else
        timing.sourceCountersError = inside.error();
    }
  } else if (timing.profiler == "rocprofv3") {
    auto inside = service::insideFolder(results / (id + ".rocprof"), bundle);
    auto reading = inside ? readRocprofOutput(results / (id + ".rocprof"))
                          : Result<ProfileReading>(Error{inside.error()});
    if (reading)
      timing.profile = std::move(*reading);
    else if (timing.profileError.empty())
      timing.profileError = reading.error();
  }
  return timing;
}

std::string ModuleTiming::method() const {
  if (batch > 1)
    return "per dispatch: " + std::to_string(batch) +
           " dispatches back to back in one submission (IREE's dispatch "
           "benchmark loop, --batch_size=" +
           std::to_string(batch) + ", so an iteration lasts at least " +
           text("%g", targetMicroseconds) +
           " us), after a warm-up; median of the repetitions. One dispatch "
           "per submission is timed too: that figure includes submission "
           "and synchronisation";
  if (kind == "dispatch")
    return "per dispatch: one dispatch lasts past the " +
           text("%g", targetMicroseconds) +
           " us an iteration needs, so each submission holds one; after a "
           "warm-up, median of the repetitions";
  return "per invocation of the module's function (not a dispatch "
         "benchmark: submission included), after a warm-up; median of the "
         "repetitions";
}

std::string ModuleTiming::summary() const {
  if (!timed())
    return status == "not-run" ? std::string("not run yet") : "no time: " + why;
  std::string out = text("%.3f us median", perDispatch->median);
  out += kind == "dispatch" ? " per dispatch" : " per invocation";
  out += " (" +
         (batch > 1 ? std::to_string(batch) + " back to back per submission; "
                    : std::string()) +
         "spread " + text("%.3f us", perDispatch->spread) + ", " +
         std::to_string(perDispatch->repetitions) + " repetitions) on " +
         device;
  if (batch > 1 && perSubmission)
    out += "; one per submission " + text("%.3f us", perSubmission->median);
  if (profile)
    out += "; " + profile->tool + " " +
           text("%.3f us", profile->kernelMicroseconds) + " per launch";
  return out;
}

json toJson(const TimingStats &stats) {
  return {{"median_us", stats.median},
          {"spread_us", stats.spread},
          {"min_us", stats.minimum},
          {"max_us", stats.maximum},
          {"repetitions", stats.repetitions}};
}

std::optional<TimingStats> timingStatsFromJson(const json &in) {
  if (!in.is_object() || !in.contains("median_us") ||
      !in["median_us"].is_number())
    return std::nullopt;
  TimingStats stats;
  stats.median = in["median_us"].get<double>();
  stats.spread = service::numberField(in, "spread_us").value_or(0.0);
  stats.minimum = service::numberField(in, "min_us").value_or(stats.median);
  stats.maximum = service::numberField(in, "max_us").value_or(stats.median);
  stats.repetitions = static_cast<int>(
      service::integerField(in, "repetitions", 0, 1 << 30).value_or(0));
  return stats;
}

json toJson(const ModuleTiming &t) {
  json out = {{"id", t.id},           {"status", t.status},
              {"device", t.device},   {"kind", t.kind},
              {"batch", t.batch},     {"benchmark", t.benchmark},
              {"method", t.method()}, {"summary", t.summary()}};
  if (!t.why.empty())
    out["why"] = t.why;
  if (t.targetMicroseconds > 0)
    out["target_us"] = t.targetMicroseconds;
  if (!t.profiler.empty())
    out["profiler"] = t.profiler;
  if (t.perDispatch) {
    out.update(toJson(*t.perDispatch));
    out["per_dispatch"] = toJson(*t.perDispatch);
  }
  if (t.perSubmission)
    out["per_submission"] = toJson(*t.perSubmission);
  if (t.probeMicroseconds)
    out["probe_us"] = *t.probeMicroseconds;
  if (t.profile)
    out["profile"] = toJson(*t.profile);
  if (!t.profileError.empty())
    out["profile_error"] = t.profileError;
  if (!t.sourceCounters.empty())
    out["source_counters"] = t.sourceCounters.string();
  if (!t.sourceCountersError.empty())
    out["source_counters_error"] = t.sourceCountersError;
  return out;
}

ModuleTiming moduleTimingFromJson(const json &in) {
  ModuleTiming t;
  t.status = service::stringField(in, "status", "failed");
  if (t.status != "ok" && t.status != "failed" && t.status != "not-run")
    t.status = "failed";
  t.id = service::stringField(in, "id");
  t.why = service::stringField(in, "why");
  t.device = service::stringField(in, "device");
  t.kind = service::stringField(in, "kind");
  t.batch = static_cast<int>(
      service::integerField(in, "batch", 1, 1 << 20).value_or(1));
  t.targetMicroseconds = service::numberField(in, "target_us").value_or(0.0);
  t.benchmark = service::stringField(in, "benchmark");
  if (in.is_object()) {
    t.perDispatch = timingStatsFromJson(in.value("per_dispatch", json()));
    t.perSubmission = timingStatsFromJson(in.value("per_submission", json()));
    t.profile = profileFromJson(in.value("profile", json()));
  }
  if (auto probe = service::numberField(in, "probe_us"); probe && *probe > 0)
    t.probeMicroseconds = *probe;
  t.profiler = service::stringField(in, "profiler");
  t.profileError = service::stringField(in, "profile_error");
  t.sourceCounters = service::stringField(in, "source_counters");
  t.sourceCountersError = service::stringField(in, "source_counters_error");
  // A time without its figures is no time.
  if (t.status == "ok" && !t.perDispatch)
    t.status = "failed";
  return t;
}

const std::string &runBundleScript() {
  static const std::string script =
#include "RunBundleScript.inc"
      ;
  return script;
}

} // namespace tilescope::run
