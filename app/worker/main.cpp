// tilescope-iree-worker: parses one IREE MLIR file with libIREECompiler.so
// and prints what it found as JSON on stdout, for a Tilescope process that
// must not load IREE's parser into itself (core/jobs/DocumentWorker).
//
//   tilescope-iree-worker parse --iree LIBRARY [--buffer-name NAME]
//                         [--split-input-file | --no-split-input-file]
//                         [--unguarded] FILE
//   tilescope-iree-worker lowered --iree LIBRARY FILE
//
// parse, stdout: {"ok": true, "document": {...}} or {"ok": false, "error":
// "...", "diagnostics": [...]}; exit 0 or 1. lowered reads one function as
// IREE printed it after a pass (--mlir-print-ir-after) and answers what
// IREE decided in it (core/iree/LoweredIr): {"ok": true, "function":
// {...}} or {"ok": false, "error": "..."}. stderr: "parsing part N from line L"
// before each part, so a crash can be pinned to its part; with
// TILESCOPE_WORKER_TIMING set, how long the parse and the reply took. A usage
// or library error exits 2.
//
// The parse runs on a thread with a 256 MB stack: MLIR's parser recurses
// once per nesting level, and the callers refuse more than
// iree::kMaximumNesting levels before they get here.
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/export/LoweredJson.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/Document.h"
#include "core/iree/LoweredIr.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>

#include <pthread.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace tilescope;
using nlohmann::json;

namespace {

constexpr size_t kParserStackBytes = 256u << 20;

struct Request {
  std::string command; // "parse" or "lowered"
  std::string library, bufferName, file;
  iree::ParseOptions options;
};

int usage(const std::string &message) {
  std::cerr << "tilescope-iree-worker: " << message
            << "\nusage: tilescope-iree-worker parse --iree LIBRARY "
               "[--buffer-name NAME] [--split-input-file | "
               "--no-split-input-file] [--unguarded] FILE\n"
               "       tilescope-iree-worker lowered --iree LIBRARY FILE\n"
               "  --unguarded  give IREE text Tilescope refuses first (a NUL "
               "byte,\n               too deep a nesting, a swizzle that "
               "crashes IREE)\n";
  return 2;
}

std::optional<Request> parseArguments(int argc, char **argv,
                                      std::string &error) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || (args.front() != "parse" && args.front() != "lowered")) {
    error = "expected the command 'parse' or 'lowered'";
    return std::nullopt;
  }
  Request request;
  request.command = args.front();
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string &arg = args[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size())
        return std::nullopt;
      return args[++i];
    };
    if (arg == "--iree" || arg == "--buffer-name") {
      auto v = value();
      if (!v) {
        error = arg + " needs a value";
        return std::nullopt;
      }
      (arg == "--iree" ? request.library : request.bufferName) = *v;
    } else if (arg == "--split-input-file") {
      request.options.splitInputFile = true;
    } else if (arg == "--no-split-input-file") {
      request.options.splitInputFile = false;
    } else if (arg == "--unguarded") {
      request.options.unguarded = true;
    } else if (!arg.empty() && arg[0] == '-') {
      error = "unknown option " + arg;
      return std::nullopt;
    } else if (request.file.empty()) {
      request.file = arg;
    } else {
      error = "expected one FILE";
      return std::nullopt;
    }
  }
  if (request.library.empty() || request.file.empty()) {
    error = "--iree and FILE are required";
    return std::nullopt;
  }
  if (request.bufferName.empty())
    request.bufferName = request.file;
  return request;
}

struct Job {
  const Request *request = nullptr;
  std::shared_ptr<iree::CompilerLibrary> library;
  json reply;
  double parseMilliseconds = 0;
};

// IREE's printed function, read back by IREE.
void readLowered(Job &job) {
  const Request &request = *job.request;
  auto text = iree::readMlirFile(request.file);
  if (!text) {
    job.reply = {{"ok", false}, {"error", text.error()}};
    return;
  }
  auto reader = iree::LoweredIrReader::create(job.library);
  if (!reader) {
    job.reply = {{"ok", false}, {"error", reader.error()}};
    return;
  }
  auto function = reader->read(*text);
  if (function)
    job.reply = {{"ok", true}, {"function", exporting::toJson(*function)}};
  else
    job.reply = {{"ok", false}, {"error", function.error()}};
}

void *parseOnLargeStack(void *argument) {
  Job &job = *static_cast<Job *>(argument);
  const Request &request = *job.request;
  if (request.command == "lowered") {
    readLowered(job);
    return nullptr;
  }
  iree::ParseOptions options = request.options;
  options.beforePart = [](int part, int firstLine) {
    std::fprintf(stderr,
                 "tilescope-iree-worker: parsing part %d from line %d\n",
                 part + 1, firstLine);
    std::fflush(stderr);
  };
  iree::DocumentParser parser(job.library);
  auto text = iree::readMlirFile(request.file);
  const auto start = std::chrono::steady_clock::now();
  Result<iree::Document> document =
      text ? parser.parseText(*text, request.bufferName, options)
           : Result<iree::Document>(Error{text.error()});
  job.parseMilliseconds = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - start)
                              .count();
  if (document) {
    document->path = request.bufferName;
    job.reply = {{"ok", true}, {"document", exporting::toJson(*document)}};
  } else {
    json diagnostics = json::array();
    for (const iree::Diagnostic &diagnostic : parser.lastDiagnostics())
      diagnostics.push_back(exporting::toJson(diagnostic));
    job.reply = {{"ok", false},
                 {"error", document.error()},
                 {"diagnostics", diagnostics}};
  }
  return nullptr;
}

} // namespace

int main(int argc, char **argv) {
  std::string error;
  auto request = parseArguments(argc, argv, error);
  if (!request)
    return usage(error);
  auto library = iree::CompilerLibrary::load(request->library);
  if (!library) {
    std::cout << exporting::jsonText(
                     json{{"ok", false}, {"error", library.error()}})
              << "\n";
    return 2;
  }

  Job job;
  job.request = &*request;
  job.library = *library;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kParserStackBytes);
  pthread_t thread;
  if (pthread_create(&thread, &attributes, parseOnLargeStack, &job) != 0) {
    // No large stack to be had: parse here (the nesting limit still holds).
    parseOnLargeStack(&job);
  } else {
    pthread_join(thread, nullptr);
  }
  pthread_attr_destroy(&attributes);
  const auto replyStart = std::chrono::steady_clock::now();
  const std::string reply = exporting::jsonText(job.reply);
  std::cout << reply << "\n";
  std::cout.flush();
  if (std::getenv("TILESCOPE_WORKER_TIMING"))
    std::fprintf(stderr,
                 "tilescope-iree-worker: parse %.1f ms, reply %.1f ms\n",
                 job.parseMilliseconds,
                 std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - replyStart)
                     .count());
  return job.reply.value("ok", false) ? 0 : 1;
}
