// tilescope-cli: everything Tilescope does, without a window.
//
//   tilescope-cli doctor [--json] [--iree PATH]
//   tilescope-cli dispatches FILE [--json] [--iree PATH]
//   tilescope-cli check --config TEXT [--translation-info TEXT]
//                       [--iteration-space 4x6656x16384:ppr] [--target gfx942]
//   tilescope-cli convert --to 3.11 TEXT
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "app/common/IreeSettings.h"
#include "app/common/RuntimeDirectory.h"
#include "core/devices/GpuDiscovery.h"
#include "core/document/Document.h"
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/iree/CompilerLibrary.h"
#include "core/process/Process.h"
#include "core/service/IreeCommands.h"
#include "core/util/Files.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QtGlobal>

#include <nlohmann/json.hpp>

#include <streambuf>
#include <string_view>

#include <csignal>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>

using nlohmann::json;
using namespace tilescope;

namespace {

using cli::kExitFailure;
using cli::kExitOk;
using cli::kExitUsage;

const char *kUsage =
    "usage: tilescope-cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  doctor              what Tilescope found: Qt, IREE, targets, drivers, "
    "GPUs\n"
    "  dispatches FILE     the dispatches, root ops and configs in an IREE "
    "MLIR file\n"
    "  configure SOURCE    run IREE on a program up to configured "
    "dispatches\n"
    "                      (--target gfx942, sm_90, llvm-cpu), linked to "
    "its ops\n"
    "  show FILE --op D:O  one root op in context: kind, loops, operands, "
    "configs,\n"
    "                      target limits, problems\n"
    "  set-config FILE     change config fields, through IREE, into the "
    "file\n"
    "  diff BEFORE AFTER   how two versions' configs differ, field by "
    "field\n"
    "  default-config FILE what IREE would choose for each root op, and how "
    "the\n"
    "                      file differs from it\n"
    "  iree-layouts FILE   IREE's own layouts (to_layout, thread foralls) "
    "for a\n"
    "                      dispatch beside Tilescope's, field by field\n"
    "  compile FILE        compile with the pinned iree-compile into a try "
    "folder\n"
    "                      (vmfb, ISA/PTX, command, log), recorded in the "
    "history\n"
    "  resources FILE      compile and read registers, spills, LDS / shared "
    "memory\n"
    "                      and occupancy from the real ISA / PTX\n"
    "  isa FILE|TRY        the kernel's instructions, classed and cut by its "
    "loops:\n"
    "                      what one reduction step issues (PTX, AMDGPU)\n"
    "  bench FILE          compile and time it on a device found here, "
    "against\n"
    "                      the roofline floor\n"
    "  verify FILE         a checked run: the program with FILE's dispatch "
    "in it,\n"
    "                      on random inputs, against a CPU reference\n"
    "  history             the tries: list, filter, JSON or CSV\n"
    "  compare A B         two tries side by side: configs, resources, "
    "times\n"
    "  report FILE         JSON: a file's configs, problems, edits and "
    "tries\n"
    "  sweep FILE          vary config fields, compile and time every valid "
    "candidate\n"
    "                      in parallel, ranked; resumable\n"
    "  tune PROGRAM        tune a whole program: its dispatches swept by "
    "share,\n"
    "                      winners checked, one tuning spec, end-to-end "
    "times\n"
    "  bundle              a run bundle of compiled tries (--try ID, --sweep "
    "NAME):\n"
    "                      modules, runtime tools and run.sh, to time them on "
    "any\n"
    "                      machine with the GPU\n"
    "  import-results DIR  a run bundle's times (and profiles) into the "
    "history\n"
    "  export-spec FILE    a tuning spec giving the root ops their configs "
    "(-o OUT,\n"
    "                      --program SOURCE proves IREE takes it)\n"
    "  split-k SOURCE      which reductions IREE splits before dispatch "
    "creation,\n"
    "                      by how much and by which rule; set or clear "
    "splits and\n"
    "                      see the dispatches they form\n"
    "  check               read and validate a lowering config (no IREE "
    "needed);\n"
    "                      FILE --op adds IREE's verdict: its pipeline "
    "constraints\n"
    "  convert             rewrite a config for another IREE release\n"
    "  explain             who holds what: a basis, a nested layout, an MMA,\n"
    "                      a config on an iteration space, a swizzle\n"
    "  render              draw a layout, config, MMA, swizzle or basis to\n"
    "                      PNG, SVG or PDF (no display needed)\n"
    "  mma-layouts         MMA intrinsics and fragment layouts, as the loaded "
    "IREE reports them\n"
    "  targets [NAME...]   what a GPU target offers (limits, MMA intrinsics), "
    "as IREE\n"
    "                      states it (gfx1250, mi300x, sm_80, ...)\n"
    "\n"
    "Run 'tilescope-cli <command> --help' for a command's options, "
    "'tilescope-cli --version' for the version.\n"
    "Exit codes: 0 ok, 1 problems found, an edit refused, a compile, run or "
    "check failed, 2 usage, 3 IREE unavailable, 4 a file unreadable or "
    "unparsable, 5 it needs a device this machine lacks.\n";

struct CommonOptions {
  QCommandLineOption json{"json", "Print JSON instead of text."};
  QCommandLineOption iree{
      "iree",
      "Use the IREE compiler library at PATH (libIREECompiler.so, its "
      "directory, or an unpacked wheel / IREE build).",
      "PATH"};
};

// The IREE the workbench finds: its library, tools, C API and runtime
// drivers; `healthy` false where it is missing or not loadable.
json ireeDoctorReport(const workbench::Workbench &bench, bool &healthy) {
  json ireeReport;
  Result<tools::IreeInstallation> installation = bench.iree();
  if (!installation) {
    ireeReport["error"] = installation.error();
    healthy = false;
  } else {
    ireeReport["library"] = installation->compilerLibrary.string();
    ireeReport["found_by"] = installation->foundBy;
    json tools = json::object();
    for (const auto &[name, path] : installation->tools)
      tools[name] = path.string();
    ireeReport["tools"] = tools;
    ireeReport["missing_tools"] = installation->missingTools;
    auto library = iree::CompilerLibrary::load(installation->compilerLibrary);
    if (!library) {
      ireeReport["error"] = library.error();
      healthy = false;
    } else {
      ireeReport["revision"] = (*library)->revision();
      ireeReport["api_version"] = (*library)->apiVersion().toString();
      ireeReport["hal_target_backends"] = (*library)->halTargetBackends();
      ireeReport["plugins"] = (*library)->plugins();
      ireeReport["missing_optional_functions"] =
          (*library)->missingOptionalFunctions();
    }
    auto drivers = service::listRuntimeDrivers(*installation);
    if (drivers) {
      json list = json::array();
      for (const service::RuntimeDriver &driver : *drivers)
        list.push_back(
            {{"name", driver.name}, {"description", driver.description}});
      ireeReport["runtime_drivers"] = list;
    } else {
      ireeReport["runtime_drivers_error"] = drivers.error();
    }
  }
  return ireeReport;
}

// The GPUs the runtimes loaded here find, and what each runtime said.
json gpuDoctorReport(const devices::GpuDiscovery &discovery) {
  json report;
  json gpus = json::array();
  for (const devices::GpuInfo &gpu : discovery.gpus)
    gpus.push_back({{"vendor", devices::toString(gpu.vendor)},
                    {"index", gpu.index},
                    {"name", gpu.name},
                    {"arch", gpu.arch},
                    {"compute_units", gpu.computeUnits},
                    {"shared_memory_per_workgroup_bytes",
                     gpu.sharedMemoryPerWorkgroupBytes},
                    {"subgroup_size", gpu.subgroupSize},
                    {"global_memory_bytes", gpu.globalMemoryBytes},
                    {"iree_device", gpu.iree_device()}});
  report["gpus"] = gpus;
  json probes = json::array();
  for (const devices::RuntimeProbe &probe : discovery.probes)
    probes.push_back({{"runtime", probe.runtime},
                      {"library", probe.library},
                      {"loaded", probe.loaded},
                      {"detail", probe.detail}});
  report["gpu_runtimes"] = probes;

  return report;
}

void printDoctor(const json &ireeReport,
                 const devices::GpuDiscovery &discovery) {
  std::cout << "Qt:                  " << qVersion() << "\n";
  if (ireeReport.contains("library"))
    std::cout << "IREE library:        "
              << ireeReport["library"].get<std::string>() << " (found by "
              << ireeReport["found_by"].get<std::string>() << ")\n";
  if (ireeReport.contains("error"))
    std::cout << "IREE:                error: "
              << ireeReport["error"].get<std::string>() << "\n";
  if (ireeReport.contains("revision")) {
    std::cout << "IREE revision:       "
              << ireeReport["revision"].get<std::string>() << "\n";
    std::cout << "IREE C API version:  "
              << ireeReport["api_version"].get<std::string>() << "\n";
    std::cout << "HAL target backends: ";
    for (const auto &backend : ireeReport["hal_target_backends"])
      std::cout << backend.get<std::string>() << " ";
    std::cout << "\n";
    if (!ireeReport["missing_optional_functions"].empty()) {
      std::cout << "Missing optional C API functions (features degraded): ";
      for (const auto &name : ireeReport["missing_optional_functions"])
        std::cout << name.get<std::string>() << " ";
      std::cout << "\n";
    }
  }
  if (ireeReport.contains("tools")) {
    for (const auto &[name, path] : ireeReport["tools"].items())
      std::cout << "  " << name << ": " << path.get<std::string>() << "\n";
    for (const auto &name : ireeReport["missing_tools"])
      std::cout << "  " << name.get<std::string>() << ": not found\n";
  }
  if (ireeReport.contains("runtime_drivers")) {
    std::cout << "Runtime drivers:     ";
    for (const auto &driver : ireeReport["runtime_drivers"])
      std::cout << driver["name"].get<std::string>() << " ";
    std::cout << "\n";
  } else if (ireeReport.contains("runtime_drivers_error")) {
    std::cout << "Runtime drivers:     error: "
              << ireeReport["runtime_drivers_error"].get<std::string>() << "\n";
  }
  if (discovery.gpus.empty()) {
    std::cout << "GPUs:                no GPU found\n";
  } else {
    std::cout << "GPUs:\n";
    for (const devices::GpuInfo &gpu : discovery.gpus)
      std::cout << "  " << gpu.iree_device() << "  " << gpu.name << "  "
                << gpu.arch << ", " << gpu.computeUnits << " CUs/SMs, "
                << gpu.sharedMemoryPerWorkgroupBytes / 1024
                << " KiB shared memory per workgroup, subgroup size "
                << gpu.subgroupSize << "\n";
  }
  for (const devices::RuntimeProbe &probe : discovery.probes)
    std::cout << "  " << probe.runtime << " (" << probe.library
              << "): " << probe.detail << "\n";
}

int doctor(const QStringList &arguments) {
  QCommandLineParser parser;
  CommonOptions options;
  parser.addOptions(
      {options.json, options.iree, cli::kOnOption, cli::kWorkspaceOption});
  if (!cli::parseCommandLine(parser, arguments, "doctor"))
    return kExitUsage;
  // A place elsewhere: what it has to run on, asked there.
  if (parser.isSet(cli::kOnOption)) {
    auto place = cli::placeOf(parser);
    if (!place) {
      std::cerr << "tilescope-cli doctor: " << place.error() << "\n";
      return kExitUsage;
    }
    if (!place->local()) {
      auto installation = cli::workbenchOf(parser).iree();
      if (!installation) {
        std::cerr << "tilescope-cli doctor: " << installation.error() << "\n";
        return cli::kExitIreeUnavailable;
      }
      return cli::doctorAt(*place, *installation, cli::workspaceOf(parser),
                           parser.isSet(options.json));
    }
  }

  json report;
  report["qt"] = qVersion();
  bool healthy = true;
  const json ireeReport = ireeDoctorReport(cli::workbenchOf(parser), healthy);
  report["iree"] = ireeReport;
  const devices::GpuDiscovery discovery = devices::discoverGpus();
  report.update(gpuDoctorReport(discovery));

  if (parser.isSet(options.json))
    std::cout << exporting::jsonText(report, 2) << "\n";
  else
    printDoctor(ireeReport, discovery);
  return healthy ? kExitOk : kExitFailure;
}

int dispatches(const QStringList &arguments) {
  QCommandLineParser parser;
  CommonOptions options;
  parser.addOptions({options.json, options.iree});
  parser.addPositionalArgument("FILE", "An IREE MLIR file.");
  if (!cli::parseCommandLine(parser, arguments, "dispatches"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 1) {
    std::cerr << "tilescope-cli dispatches: expected one FILE\n";
    return kExitUsage;
  }
  const std::string path = parser.positionalArguments().front().toStdString();

  // IREE parses the file in a child process: a file that crashes its
  // parser gives a message, not a dead CLI.
  auto worker = cli::workbenchOf(parser).worker();
  if (!worker) {
    std::cerr << "tilescope-cli dispatches: " << worker.error() << "\n";
    return cli::kExitIreeUnavailable;
  }
  // Missing, unreadable or refused by IREE's parser: the file is the
  // problem (exit 4, as every command says it).
  auto document = worker->parseFile(path);
  if (!document) {
    std::cerr << "tilescope-cli dispatches: " << document.error() << "\n";
    return cli::kExitBadInput;
  }

  if (parser.isSet(options.json)) {
    std::cout << exporting::jsonText(exporting::toJson(*document), 2) << "\n";
    return kExitOk;
  }
  std::cout << path << ": " << document->dispatches.size() << " dispatch"
            << (document->dispatches.size() == 1 ? "" : "es") << "\n";
  if (document->dispatches.empty())
    std::cout << "  a program before IREE forms its dispatches: `tilescope-cli "
                 "configure "
              << path
              << " --target gfx942 -o CONFIGURED.mlir` (or sm_90, llvm-cpu) "
                 "forms and configures them; `tilescope-cli split-k "
              << path << " --target gfx942` shows which reductions IREE "
              << "splits first\n";
  for (const document::Dispatch &dispatch : document->dispatches) {
    std::cout << "\n" << dispatch.name << "  (line " << dispatch.line;
    if (!dispatch.variant.empty())
      std::cout << ", " << dispatch.executable << "::" << dispatch.variant;
    std::cout << ")\n";
    if (!dispatch.translationInfo.empty())
      std::cout << "  translation_info: " << dispatch.translationInfo << "\n";
    for (const document::RootOp &op : dispatch.rootOps) {
      std::cout << "  " << op.name << " (line " << op.line << ")";
      if (op.rootOpSet)
        std::cout << " root_op set " << *op.rootOpSet;
      std::cout << "\n";
      if (!op.loweringConfig.empty())
        std::cout << "    lowering_config: " << op.loweringConfig << "\n";
      if (!op.compilationInfo.empty())
        std::cout << "    compilation_info: " << op.compilationInfo << "\n";
    }
  }
  return kExitOk;
}

} // namespace

// SIGINT, SIGTERM and SIGHUP stop the running jobs (their children
// included) and let the command record what it was doing as interrupted; a
// second one ends the command at once.
static void stopJobsOnSignals() {
  struct sigaction action {};
  action.sa_handler = [](int signal) { process::interruptJobs(signal); };
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP})
    ::sigaction(signal, &action, nullptr);
}

static int runCommand(int argc, char **argv) {
  // Drawing needs a QGuiApplication; everything else a QCoreApplication.
  // With no display, draw offscreen.
  bool drawing = argc > 1 && std::string_view(argv[1]) == "render";
  if (argc > 1 && std::string_view(argv[1]) == "split-k")
    for (int i = 2; i < argc; ++i)
      drawing = drawing || std::string_view(argv[i]).rfind("--picture", 0) == 0;
  if (drawing && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
      qEnvironmentVariableIsEmpty("DISPLAY") &&
      qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  if (drawing)
    app::provideRuntimeDirectory();
  const std::unique_ptr<QCoreApplication> application =
      drawing ? std::make_unique<QGuiApplication>(argc, argv)
              : std::make_unique<QCoreApplication>(argc, argv);
  QCoreApplication::setOrganizationName(app::kOrganization);
  QCoreApplication::setApplicationName(app::kApplication);

  QStringList arguments = QCoreApplication::arguments();
  if (arguments.size() == 2 &&
      (arguments[1] == "--version" || arguments[1] == "-v")) {
    std::cout << "tilescope-cli " << TILESCOPE_VERSION << " (IREE "
              << app::kPinnedRelease << " pinned; `tilescope-cli doctor` "
              << "says which IREE it loads)\n";
    return kExitOk;
  }
  if (arguments.size() < 2 || arguments[1] == "--help" ||
      arguments[1] == "-h") {
    std::cout << kUsage;
    return arguments.size() < 2 ? kExitUsage : kExitOk;
  }
  const QString command = arguments[1];
  // QCommandLineParser expects the program name first.
  QStringList commandArguments = arguments.mid(2);
  commandArguments.prepend(arguments[0] + " " + command);

  if (command == "doctor")
    return doctor(commandArguments);
  if (command == "dispatches")
    return dispatches(commandArguments);
  if (command == "check")
    return cli::check(commandArguments);
  if (command == "show")
    return cli::show(commandArguments);
  if (command == "set-config")
    return cli::setConfig(commandArguments);
  if (command == "diff")
    return cli::diff(commandArguments);
  if (command == "configure")
    return cli::configure(commandArguments);
  if (command == "default-config")
    return cli::defaultConfig(commandArguments);
  if (command == "iree-layouts")
    return cli::ireeLayouts(commandArguments);
  if (command == "compile")
    return cli::compile(commandArguments);
  if (command == "resources")
    return cli::resources(commandArguments);
  if (command == "isa")
    return cli::isa(commandArguments);
  if (command == "bench")
    return cli::bench(commandArguments);
  if (command == "verify")
    return cli::verify(commandArguments);
  if (command == "history")
    return cli::history(commandArguments);
  if (command == "compare")
    return cli::compare(commandArguments);
  if (command == "report")
    return cli::report(commandArguments);
  if (command == "export-spec")
    return cli::exportSpec(commandArguments);
  if (command == "sweep")
    return cli::sweep(commandArguments);
  if (command == "tune")
    return cli::tune(commandArguments);
  if (command == "split-k")
    return cli::splitK(commandArguments);
  if (command == "bundle")
    return cli::bundle(commandArguments);
  if (command == "import-results")
    return cli::importResults(commandArguments);
  if (command == "convert")
    return cli::convert(commandArguments);
  if (command == "mma-layouts")
    return cli::mmaLayouts(commandArguments);
  if (command == "targets")
    return cli::targets(commandArguments);
  if (command == "explain")
    return cli::explain(commandArguments);
  if (command == "render")
    return cli::render(commandArguments);
  std::cerr << "tilescope-cli: unknown command '" << command.toStdString()
            << "'\n\n"
            << kUsage;
  return kExitUsage;
}

namespace {

// A stream's buffer that passes everything on to `target`, counting it and,
// when asked, keeping a copy.
class WatchedBuffer : public std::streambuf {
public:
  WatchedBuffer(std::streambuf *target, bool keep)
      : target(target), keep(keep) {}
  std::streamsize written = 0;
  std::string kept;

protected:
  int overflow(int c) override {
    if (c == traits_type::eof())
      return traits_type::not_eof(c);
    ++written;
    if (keep)
      kept.push_back(static_cast<char>(c));
    return target->sputc(static_cast<char>(c));
  }
  std::streamsize xsputn(const char *text, std::streamsize n) override {
    written += n;
    if (keep)
      kept.append(text, static_cast<size_t>(n));
    return target->sputn(text, n);
  }
  int sync() override { return target->pubsync(); }

private:
  std::streambuf *target;
  bool keep;
};

// With --json, a command that fails before it prints anything still
// answers JSON on stdout: {"error": what it said on stderr, "exit_code": N}
// (the words also stay on stderr), so a script reading stdout always reads
// JSON.
int runCommandAnsweringJson(int argc, char **argv) {
  bool asJson = false;
  for (int i = 1; i < argc; ++i)
    asJson = asJson || std::string_view(argv[i]) == "--json";
  if (!asJson)
    return runCommand(argc, argv);
  WatchedBuffer out(std::cout.rdbuf(), false), err(std::cerr.rdbuf(), true);
  std::streambuf *const realOut = std::cout.rdbuf(&out);
  std::streambuf *const realErr = std::cerr.rdbuf(&err);
  const int code = runCommand(argc, argv);
  std::cout.flush();
  std::cerr.flush();
  std::cout.rdbuf(realOut);
  std::cerr.rdbuf(realErr);
  if (code != kExitOk && out.written == 0) {
    std::string error = err.kept;
    while (!error.empty() && (error.back() == '\n' || error.back() == ' '))
      error.pop_back();
    std::cout << json{{"error", error.empty() ? "failed" : error},
                      {"exit_code", code}}
                     .dump(2)
              << "\n";
  }
  return code;
}

} // namespace

int main(int argc, char **argv) {
  stopJobsOnSignals();
  // What killed Tilescopes left in the temporary folder goes first.
  removeStaleTemporaryDirectories();
  const int code = runCommandAnsweringJson(argc, argv);
  // Interrupted: the shell's convention, 128 + the signal.
  if (const int signal = process::jobsInterruptedBy())
    return 128 + signal;
  return code;
}
