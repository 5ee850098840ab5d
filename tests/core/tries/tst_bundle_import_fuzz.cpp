// import-results against what a hostile or broken bundle holds, generated:
// every field of every file a bundle brings back (manifest.json,
// results/results.json, a module's .done, .batched.json and .single.json)
// set to every JSON type and to values that cannot be true, every file
// replaced by what is not a regular file (a FIFO, a link to /dev/zero, a
// folder) or by one past the bound, module ids that reach outside the
// bundle, and seeded random combinations of them. Each import must return
// (a result or an error, never a throw, a hang or a read without bound),
// and whatever it records must be possible: a time positive and finite, a
// batch a count of dispatches, a compiled try one the history holds.
#include "TestSupport.h"

#include "core/tries/BundleTries.h"
#include "core/tries/History.h"
#include "core/tries/JobJson.h"

#include <QTemporaryDir>

#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <random>

using namespace tilescope;
using namespace tilescope::process;
using namespace tilescope::service;
using namespace tilescope::isa;
using namespace tilescope::run;
using namespace tilescope::tries;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json manifestJson() {
  return {{"format", "tilescope-run-bundle/1"},
          {"created", "2026-11-27T19:49:03Z"},
          {"standalone", false},
          {"modules",
           {{{"id", "try-1"},
             {"module", "modules/try-1.vmfb"},
             {"device", "cuda"},
             {"kind", "dispatch"},
             {"about",
              {{"try", 1},
               {"document", "/work/a.mlir"},
               {"op", "0:0"},
               {"target", "cuda-sm_90"},
               {"sweep", "s"},
               {"candidate", "workgroup[0]=64"},
               {"configs", json::object()},
               {"prediction", {{"us", 20.0}, {"floor_us", 5.0}}}}}}}}};
}

json resultsJson() {
  return {{"format", "tilescope-run-results/1"},
          {"host", "gpu-host"},
          {"modules", {"try-1"}}};
}

json doneJson() {
  return {{"status", "ok"},    {"why", ""},
          {"device", "cuda"},  {"kind", "dispatch"},
          {"batch", 4},        {"target_us", 10000},
          {"probe_us", 100.0}, {"profiler", ""},
          {"profile_why", ""}, {"finished", "2026-11-27T19:55:02Z"}};
}

json benchmarkJson(double time) {
  json rows = json::array();
  for (int i = 0; i < 3; ++i)
    rows.push_back({{"name", "BM_dispatch/process_time/real_time"},
                    {"run_type", "iteration"},
                    {"iterations", 10},
                    {"real_time", time + i},
                    {"cpu_time", 1.0},
                    {"time_unit", "us"}});
  return {{"benchmarks", rows}};
}

// The files of a bundle as JSON, by name under the bundle.
struct Bundle {
  std::map<std::string, json> files = {
      {"manifest.json", manifestJson()},
      {"results/results.json", resultsJson()},
      {"results/try-1.done", doneJson()},
      {"results/try-1.batched.json", benchmarkJson(25)},
      {"results/try-1.single.json", benchmarkJson(40)}};
  // Files replaced by something other than their JSON: "fifo", "dev-zero",
  // "folder", "huge", "empty", "garbage".
  std::map<std::string, std::string> replaced;
};

// The values a field is set to: every JSON type, and numbers no run makes.
const std::vector<json> &hostileValues() {
  static const std::vector<json> values = {json(7),
                                           json("text"),
                                           json("nan"),
                                           json::object(),
                                           json::array(),
                                           json(nullptr),
                                           json(true),
                                           json(-5),
                                           json(0),
                                           json(1e308),
                                           json(-1e308),
                                           json(1e30),
                                           json(2.5),
                                           json("../../escape"),
                                           json(std::string(4096, 'x'))};
  return values;
}

// Every (file, JSON pointer) of the base bundle whose value is a scalar or
// an object or array we may swap: the fields a reader looks at.
std::vector<std::pair<std::string, json::json_pointer>>
fieldsOf(const Bundle &b) {
  std::vector<std::pair<std::string, json::json_pointer>> out;
  for (const auto &[name, content] : b.files) {
    const json flat = content.flatten();
    for (auto it = flat.begin(); it != flat.end(); ++it) {
      json::json_pointer pointer(it.key());
      out.push_back({name, pointer});
      // Its parents too (an object or array replaced whole).
      while (!pointer.empty()) {
        pointer = pointer.parent_pointer();
        if (!pointer.empty())
          out.push_back({name, pointer});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const auto &x, const auto &y) {
    return x.first + x.second.to_string() < y.first + y.second.to_string();
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void write(const fs::path &root, const Bundle &b) {
  fs::remove_all(root);
  fs::create_directories(root / "results");
  for (const auto &[name, content] : b.files) {
    const fs::path path = root / name;
    const auto kind = b.replaced.find(name);
    if (kind == b.replaced.end()) {
      std::ofstream(path) << content.dump();
    } else if (kind->second == "fifo") {
      ::mkfifo(path.c_str(), 0600);
    } else if (kind->second == "dev-zero") {
      fs::create_symlink("/dev/zero", path);
    } else if (kind->second == "folder") {
      fs::create_directories(path);
    } else if (kind->second == "huge") {
      // Past the 64 MiB bound, sparse (no disk written).
      std::ofstream(path) << "{";
      fs::resize_file(path, (64ull << 20) + 1);
    } else if (kind->second == "empty") {
      std::ofstream(path).flush();
    } else {
      std::ofstream(path) << "{\"status\": \"ok\", \"batch\": [1, 2";
    }
  }
}

// Imports `b` into a fresh history; a failure names what was wrong with
// what the import did, empty when it behaved.
std::string importAndJudge(const fs::path &root, const Bundle &b,
                           const std::string &label) {
  write(root / "bundle", b);
  fs::remove(root / "history.sqlite");
  auto history = History::open(root / "history.sqlite");
  if (!history)
    return label + ": " + history.error();
  // Try 1 exists in this history for /work/a.mlir (a compile).
  TryRecord compiled;
  compiled.kind = "compile";
  compiled.document = "/work/a.mlir";
  compiled.op = "0:0";
  compiled.outcome = "ok";
  if (!history->add(compiled))
    return label + ": cannot seed the history";
  Result<ImportReport> report = Error{"not run"};
  try {
    report = importBundleResults(root / "bundle", *history);
  } catch (const std::exception &e) {
    return label + ": import threw " + e.what();
  }
  if (!report)
    return {}; // refused, with words: fine
  auto rows = history->list({});
  if (!rows)
    return label + ": " + rows.error();
  for (const TryRecord &r : *rows) {
    if (r.kind != "bench")
      continue;
    if (r.outcome == "ok") {
      if (!r.medianMicroseconds || !std::isfinite(*r.medianMicroseconds) ||
          *r.medianMicroseconds <= 0)
        return label + ": an ok row with time " +
               std::to_string(r.medianMicroseconds.value_or(-1));
      const int batch = r.bench ? r.bench->timing.batch : 0;
      if (batch < 1 || batch > (1 << 20))
        return label + ": an ok row with batch " + std::to_string(batch);
    }
    if (r.imported && r.imported->compiledIn &&
        !history->get(*r.imported->compiledIn))
      return label + ": compiled_in names a try the history does not hold";
  }
  for (const ImportedModule &m : report->modules)
    if (m.id.find('/') != std::string::npos || m.id.find("..") == 0)
      return label + ": imported module " + m.id + " from outside the bundle";
  return {};
}

} // namespace

class BundleImportFuzzTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir;
  fs::path root() const { return dir.path().toStdString(); }

private slots:
  // The untampered bundle imports one ok row, linked to the try that
  // compiled its module; bundling that row again bundles that try.
  void theBaseBundleImports() {
    Bundle b;
    write(root() / "bundle", b);
    auto history = History::open(root() / "base.sqlite");
    QVERIFY(history.ok());
    TryRecord compiled;
    compiled.kind = "compile";
    compiled.document = "/work/a.mlir";
    compiled.outcome = "ok";
    compiled.compile = TriedCompile{};
    QCOMPARE(*history->add(compiled), 1LL);
    auto report = importBundleResults(root() / "bundle", *history);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().c_str());
    QCOMPARE(report->modules.size(), size_t(1));
    QVERIFY(report->modules[0].timing.timed());
    QCOMPARE(report->host, std::string("gpu-host"));
    QCOMPARE(report->modules[0].compiledIn.value_or(0), 1LL);
    auto bundled = bundledTryOf(*history, *report->modules[0].imported);
    QVERIFY(bundled.ok());
    QCOMPARE(bundled->id, 1LL);
    QCOMPARE(bundledTryOf(*history, 1)->id, 1LL);
    // Its kernel is the compiled try's; Nsight Compute's source page is
    // the bundle's results/ID.source.csv where the run wrote one, and never
    // a file a link leads out of the bundle to.
    const long long row = *report->modules[0].imported;
    auto files = kernelFilesOf(*history, row);
    QVERIFY(files.ok());
    QCOMPARE(files->compiledIn, 1LL);
    QVERIFY(files->sourceCounters.empty());
    const fs::path page = root() / "bundle" / "results" / "try-1.source.csv";
    {
      std::ofstream out(page);
      out << "\"Address\",\"Source\"\n\"0x10\",\"EXIT\"\n";
    }
    QCOMPARE(kernelFilesOf(*history, row)->sourceCounters, page);
    fs::remove(page);
    {
      std::ofstream out(root() / "outside.csv");
      out << "\"Address\",\"Source\"\n\"0x10\",\"EXIT\"\n";
    }
    fs::create_symlink(root() / "outside.csv", page);
    QVERIFY(kernelFilesOf(*history, row)->sourceCounters.empty());
    fs::remove(page);
    QVERIFY(!kernelFilesOf(*history, 99).ok());
  }

  // Every field of every file, set to every hostile value and removed.
  void everyFieldEveryValue() {
    const Bundle base;
    size_t cases = 0;
    for (const auto &[file, pointer] : fieldsOf(base)) {
      for (const json &value : hostileValues()) {
        Bundle b = base;
        b.files[file][pointer] = value;
        const std::string why = importAndJudge(
            root(), b,
            file + pointer.to_string() + " = " + value.dump().substr(0, 40));
        QVERIFY2(why.empty(), why.c_str());
        ++cases;
      }
      Bundle removed = base;
      if (!pointer.empty() && removed.files[file].contains(pointer)) {
        json &parent = removed.files[file][pointer.parent_pointer()];
        if (parent.is_object())
          parent.erase(pointer.back());
        const std::string why = importAndJudge(
            root(), removed, file + pointer.to_string() + " removed");
        QVERIFY2(why.empty(), why.c_str());
        ++cases;
      }
    }
    qInfo("%zu field cases", cases);
    QVERIFY(cases > 300);
  }

  // Every file replaced by what is not a bundle's file: none is waited on
  // or read without bound.
  void everyFileEveryKind() {
    for (const auto &[file, content] : Bundle().files)
      for (const char *kind :
           {"fifo", "dev-zero", "folder", "huge", "empty", "garbage"}) {
        Bundle b;
        b.replaced[file] = kind;
        const std::string why = importAndJudge(root(), b, file + " as " + kind);
        QVERIFY2(why.empty(), why.c_str());
      }
  }

  // Module ids that would reach outside the bundle refuse the bundle.
  void idsOutsideTheBundleAreRefused() {
    for (const json &id :
         {json("../../../../escape/try-1"), json("/etc/passwd"), json(""),
          json("."), json(".."), json(5), json("a/b")}) {
      Bundle b;
      b.files["manifest.json"]["modules"][0]["id"] = id;
      write(root() / "bundle", b);
      auto history = History::open(root() / "ids.sqlite");
      QVERIFY(history.ok());
      auto report = importBundleResults(root() / "bundle", *history);
      QVERIFY2(!report.ok(), id.dump().c_str());
      QVERIFY2(report.error().find("not a plain file name") !=
                   std::string::npos,
               report.error().c_str());
    }
    Bundle none;
    none.files["manifest.json"]["modules"] = json::object();
    write(root() / "bundle", none);
    auto history = History::open(root() / "none.sqlite");
    auto report = importBundleResults(root() / "bundle", *history);
    QVERIFY(!report.ok());
    QVERIFY(report.error().find("lists no modules") != std::string::npos);
  }

  // A kernel's resources as a bundle's manifest carries them (read when a
  // module was profiled): every field of every type reads without a throw,
  // and a number out of its range is not taken.
  void kernelResourcesOfEveryType() {
    const json base = {{"kernel", "k"},
                       {"backend", "cuda"},
                       {"arch", "sm_90"},
                       {"read_from", "x.ptx"},
                       {"scratch_bytes", 0},
                       {"shared_memory_bytes", 13568},
                       {"workgroup_size", 256},
                       {"subgroup_size", 32},
                       {"registers", 80},
                       {"vgprs", 1},
                       {"agprs", 1},
                       {"sgprs", 1},
                       {"occupancy",
                        {{"active", 24},
                         {"maximum", 64},
                         {"unit", "warps per SM"},
                         {"limited_by", "registers"},
                         {"limits", {{"registers", 24}}}}}};
    const json flat = base.flatten();
    for (auto it = flat.begin(); it != flat.end(); ++it)
      for (const json &value : hostileValues()) {
        json resources = base;
        resources[json::json_pointer(it.key())] = value;
        try {
          const KernelResources k = kernelResourcesFromJson(resources);
          QVERIFY(k.sharedMemoryBytes >= 0 && k.scratchBytes >= 0);
          QVERIFY(k.workgroupSize >= 0 && k.subgroupSize >= 0);
          QVERIFY(!k.registers || *k.registers >= 0);
        } catch (const std::exception &e) {
          QFAIL(qPrintable(QString::fromStdString(
              it.key() + " = " + value.dump() + ": " + e.what())));
        }
      }
  }

  // Seeded random combinations: one to four fields at once.
  void randomCombinations() {
    const Bundle base;
    const auto fields = fieldsOf(base);
    std::mt19937 random(20261127);
    for (int i = 0; i < 300; ++i) {
      Bundle b = base;
      std::string label = "case " + std::to_string(i) + ":";
      const int n = 1 + static_cast<int>(random() % 4);
      for (int j = 0; j < n; ++j) {
        const auto &[file, pointer] = fields[random() % fields.size()];
        const json &value = hostileValues()[random() % hostileValues().size()];
        try { // an earlier change may have made a parent a scalar
          b.files[file][pointer] = value;
        } catch (const json::exception &) {
          continue;
        }
        label +=
            " " + file + pointer.to_string() + "=" + value.dump().substr(0, 20);
      }
      const std::string why = importAndJudge(root(), b, label);
      QVERIFY2(why.empty(), why.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(BundleImportFuzzTest)
#include "tst_bundle_import_fuzz.moc"
