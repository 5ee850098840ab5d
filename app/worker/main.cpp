// tilescope-iree-worker: parses IREE MLIR with libIREECompiler.so and
// answers what it found as JSON, for a Tilescope process that must not load
// IREE's parser into itself (core/service/DocumentWorker).
//
//   tilescope-iree-worker parse --iree LIBRARY [--buffer-name NAME]
//                         [--split-input-file | --no-split-input-file]
//                         [--unguarded] FILE
//   tilescope-iree-worker lowered --iree LIBRARY FILE
//   tilescope-iree-worker reductions | dispatches | dags --iree LIBRARY FILE
//   tilescope-iree-worker with-splits --iree LIBRARY --choices JSON FILE
//   tilescope-iree-worker attribute --iree LIBRARY FILE
//   tilescope-iree-worker serve --iree LIBRARY
//
// parse, stdout: {"ok": true, "document": {...}} or {"ok": false, "error":
// "...", "diagnostics": [...]}; exit 0 or 1. lowered reads one function as
// IREE printed it after a pass (--mlir-print-ir-after) and answers what
// IREE decided in it (core/iree/LoweredIr): {"ok": true, "function":
// {...}} or {"ok": false, "error": "..."}.
//
// Split-k (core/service/SplitK), on what iree-compile printed: reductions reads
// a program at IREE's split-reduction point ({"ok": true, "reductions":
// [...]}), with-splits writes the chosen splits on it ({"ok": true,
// "program": "..."}; --choices is a JSON array of {"function", "index",
// "sizes"}), dispatches lists a flow module's formed dispatches ({"ok": true,
// "dispatches": [...]}); dags prints a configured text's root ops as tuning
// spec matchers ({"ok": true, "dags": [...]}, core/document/RootOpDag);
// core/export/ProgramReductionsJson reads them back.
//
// attribute reads FILE, one attribute's text, and answers IREE's print of it
// ({"ok": true, "attribute": "..."}) or IREE's refusal ({"ok": false,
// "error": "<attribute>:1:COLUMN: error: ..."}): the check every edit's new
// attribute passes, whichever front end made it.
//
// serve loads the library once and answers requests until stdin ends: it
// first writes {"ready": true} (or {"ok": false, "error": ...} and exits 2),
// then for each line on stdin, {"command": "parse" | "lowered" |
// "reductions" | "with-splits" | "dispatches" | "dags" | "attribute", "file":
// ... or "payload_bytes": N, "buffer_name": ..., "split_input_file": BOOL,
// "unguarded": BOOL, "choices": [...], "id": N}, followed by the N bytes of
// text itself where it names no file (an edited buffer, one attribute:
// nothing written to disk), one line of the answer above, beginning
// {"id":N, when the request had one (a document's long texts shared:
// DocumentJson). One
// IREE context serves every parse, so what it uniqued stays uniqued.
//
// stderr: "parsing part N from line L" before each part, so a crash can be
// pinned to its part; with TILESCOPE_WORKER_TIMING set, how long the parse
// and the reply took. A usage or library error exits 2.
//
// Requests run on a thread with a 256 MB stack: MLIR's parser recurses once
// per nesting level, and the callers refuse more than iree::kMaximumNesting
// levels before they get here.
#include "core/document/MlirFile.h"
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/export/LoweredJson.h"
#include "core/export/ProgramReductionsJson.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/DocumentParser.h"
#include "core/iree/LoweredIrReader.h"
#include "core/iree/ProgramReader.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <pthread.h>

using namespace tilescope;
using nlohmann::json;

namespace {

constexpr size_t kParserStackBytes = 256u << 20;

struct Request {
  std::string command; // "parse", "lowered", a split-k command or "serve"
  std::string library, bufferName, file;
  // serve: the text itself, sent after the request line (its
  // "payload_bytes"), where no file is named.
  std::optional<std::string> payload;
  iree::ParseOptions options;
  json choices = json::array(); // with-splits
  // serve: the caller's number for the request, echoed first in the reply
  // (`{"id":N,...`), so an answer is never taken for another request's.
  std::optional<long long> id;
};

bool knownCommand(const std::string &command) {
  return command == "parse" || command == "lowered" ||
         command == "reductions" || command == "with-splits" ||
         command == "dispatches" || command == "dags" || command == "attribute";
}

int usage(const std::string &message) {
  std::cerr << "tilescope-iree-worker: " << message
            << "\nusage: tilescope-iree-worker parse --iree LIBRARY "
               "[--buffer-name NAME] [--split-input-file | "
               "--no-split-input-file] [--unguarded] FILE\n"
               "       tilescope-iree-worker lowered --iree LIBRARY FILE\n"
               "       tilescope-iree-worker reductions | dispatches | dags "
               "--iree LIBRARY FILE\n"
               "       tilescope-iree-worker with-splits --iree LIBRARY "
               "--choices JSON FILE\n"
               "       tilescope-iree-worker attribute --iree LIBRARY FILE\n"
               "       tilescope-iree-worker serve --iree LIBRARY\n"
               "  --unguarded  give IREE text Tilescope refuses first (a NUL "
               "byte,\n               too deep a nesting, a swizzle that "
               "crashes IREE)\n";
  return 2;
}

std::optional<Request> parseArguments(int argc, char **argv,
                                      std::string &error) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() ||
      (!knownCommand(args.front()) && args.front() != "serve")) {
    error = "expected the command 'parse', 'lowered', 'reductions', "
            "'with-splits', 'dispatches', 'dags', 'attribute' or 'serve'";
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
    } else if (arg == "--choices") {
      auto v = value();
      request.choices = v ? json::parse(*v, nullptr, false) : json();
      if (!request.choices.is_array()) {
        error = "--choices takes a JSON array of split choices";
        return std::nullopt;
      }
    } else if (arg == "--split-input-file") {
      request.options.splitInputFile = true;
    } else if (arg == "--no-split-input-file") {
      request.options.splitInputFile = false;
    } else if (arg == "--unguarded") {
      request.options.unguarded = true;
    } else if (!arg.empty() && arg[0] == '-') {
      error = "unknown option " + arg;
      return std::nullopt;
    } else if (request.file.empty() && request.command != "serve") {
      request.file = arg;
    } else {
      error = request.command == "serve" ? "serve takes no FILE"
                                         : "expected one FILE";
      return std::nullopt;
    }
  }
  if (request.library.empty() ||
      (request.file.empty() && request.command != "serve")) {
    error = request.command == "serve" ? "--iree is required"
                                       : "--iree and FILE are required";
    return std::nullopt;
  }
  if (request.bufferName.empty())
    request.bufferName = request.file;
  return request;
}

// The length of the text that follows a request line ("payload_bytes"):
// none where the line names none; an Error where it is not a whole number
// of bytes within what Tilescope reads.
Result<std::optional<size_t>> payloadBytesOf(const json &value) {
  const auto it = value.find("payload_bytes");
  if (it == value.end())
    return std::optional<size_t>();
  if (!it->is_number_unsigned() ||
      it->get<uint64_t>() > document::kMaximumFileBytes)
    return Error{"a request's \"payload_bytes\" is a whole number of "
                 "bytes, at most " +
                 std::to_string(document::kMaximumFileBytes >> 20) + " MiB"};
  return std::optional<size_t>(it->get<size_t>());
}

// A request line of serve; the Error says what is wrong with it.
Result<Request> requestFromLine(const std::string &line) {
  const json value = json::parse(line, nullptr, false);
  if (!value.is_object())
    return Error{"a request is one JSON object on a line"};
  Request request;
  auto text = [&](const char *key, std::string &out) {
    if (auto it = value.find(key); it != value.end() && it->is_string())
      out = it->get<std::string>();
  };
  text("command", request.command);
  text("file", request.file);
  text("buffer_name", request.bufferName);
  if (!knownCommand(request.command))
    return Error{"a request's \"command\" is \"parse\", \"lowered\", "
                 "\"reductions\", \"with-splits\", \"dispatches\", "
                 "\"dags\" or \"attribute\""};
  if (auto it = value.find("id"); it != value.end()) {
    if (!it->is_number_integer())
      return Error{"a request's \"id\" is a whole number"};
    request.id = it->get<long long>();
  }
  if (auto it = value.find("choices"); it != value.end()) {
    if (!it->is_array())
      return Error{"a request's \"choices\" is an array"};
    request.choices = *it;
  }
  auto payloadBytes = payloadBytesOf(value);
  if (!payloadBytes)
    return Error{payloadBytes.error()};
  if (*payloadBytes) {
    if (!request.file.empty())
      return Error{"a request names a \"file\" or sends a payload, not both"};
    request.payload.emplace(**payloadBytes, '\0');
  }
  if (request.file.empty() && !request.payload)
    return Error{"a request needs a \"file\" or \"payload_bytes\""};
  if (request.bufferName.empty())
    request.bufferName = request.payload ? "<payload>" : request.file;
  if (auto it = value.find("split_input_file");
      it != value.end() && it->is_boolean())
    request.options.splitInputFile = it->get<bool>();
  if (auto it = value.find("unguarded"); it != value.end() && it->is_boolean())
    request.options.unguarded = it->get<bool>();
  return request;
}

// The request's text: what followed its line, else its file's.
Result<std::string> inputOf(const Request &request) {
  if (request.payload)
    return *request.payload;
  return document::readMlirFile(request.file);
}

// IREE's printed function, read back by IREE.
json readLowered(const Request &request,
                 const std::shared_ptr<iree::CompilerLibrary> &library) {
  auto text = inputOf(request);
  if (!text)
    return {{"ok", false}, {"error", text.error()}};
  auto reader = iree::LoweredIrReader::create(library);
  if (!reader)
    return {{"ok", false}, {"error", reader.error()}};
  auto function = reader->read(*text);
  if (function)
    return {{"ok", true}, {"function", exporting::toJson(*function)}};
  return {{"ok", false}, {"error", function.error()}};
}

// Split-k's three questions on what iree-compile printed, read by IREE.
json programAnswer(const Request &request,
                   const std::shared_ptr<iree::CompilerLibrary> &library) {
  auto text = inputOf(request);
  if (!text)
    return {{"ok", false}, {"error", text.error()}};
  auto reader = iree::ProgramReader::create(library);
  if (!reader)
    return {{"ok", false}, {"error", reader.error()}};
  auto failed = [](const std::string &error) {
    return json{{"ok", false}, {"error", error}};
  };
  if (request.command == "reductions") {
    auto reductions = reader->reductions(*text, request.bufferName);
    if (!reductions)
      return failed(reductions.error());
    json out = json::array();
    for (const auto &reduction : *reductions)
      out.push_back(exporting::toJson(reduction));
    return {{"ok", true}, {"reductions", out}};
  }
  if (request.command == "with-splits") {
    auto choices = exporting::arrayFromJson<document::SplitChoice>(
        request.choices, exporting::splitChoiceFromJson);
    if (!choices)
      return failed("choices: " + choices.error());
    auto program = reader->withSplits(*text, request.bufferName, *choices);
    if (!program)
      return failed(program.error());
    return {{"ok", true}, {"program", *program}};
  }
  if (request.command == "dags") {
    auto dags = reader->rootOpDags(*text, request.bufferName);
    if (!dags)
      return failed(dags.error());
    json out = json::array();
    for (const auto &dag : *dags)
      out.push_back(exporting::toJson(dag));
    return {{"ok", true}, {"dags", out}};
  }
  auto dispatches = reader->dispatches(*text, request.bufferName);
  if (!dispatches)
    return failed(dispatches.error());
  json out = json::array();
  for (const auto &dispatch : *dispatches)
    out.push_back(exporting::toWorkerJson(dispatch));
  return {{"ok", true}, {"dispatches", out}};
}

// One attribute printed by IREE, on one session kept for the worker's life
// (an editor asks on every edit).
json printAttribute(const Request &request,
                    const std::shared_ptr<iree::CompilerLibrary> &library) {
  auto text = inputOf(request);
  if (!text)
    return {{"ok", false}, {"error", text.error()}};
  static iree::AttributeParser parser(library);
  auto printed = parser.print(*text);
  if (!printed)
    return {{"ok", false}, {"error", printed.error()}};
  return {{"ok", true}, {"attribute", *printed}};
}

// The document is moved into `answered`, freed by the caller once the
// answer is out (1000 dispatches take milliseconds to free).
json parse(const Request &request, iree::DocumentParser &parser,
           bool shareTexts, double &milliseconds,
           std::optional<document::Document> &answered) {
  iree::ParseOptions options = request.options;
  options.keepModules = true; // freed once the answer is out
  options.beforePart = [](int part, int firstLine) {
    std::fprintf(stderr,
                 "tilescope-iree-worker: parsing part %d from line %d\n",
                 part + 1, firstLine);
    std::fflush(stderr);
  };
  const auto start = std::chrono::steady_clock::now();
  auto text = inputOf(request);
  Result<document::Document> document =
      text ? parser.parseText(std::move(*text), request.bufferName, options)
           : Result<document::Document>(Error{text.error()});
  milliseconds = std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  if (document) {
    document->path = request.bufferName;
    json reply = {{"ok", true}};
    reply["document"] = exporting::toJson(*document, shareTexts);
    answered = std::move(*document);
    return reply;
  }
  json diagnostics = json::array();
  for (const document::Diagnostic &diagnostic : parser.lastDiagnostics())
    diagnostics.push_back(exporting::toJson(diagnostic));
  return {
      {"ok", false}, {"error", document.error()}, {"diagnostics", diagnostics}};
}

// Answers one request on stdout, a line of JSON; true when it went well.
bool answer(const Request &request,
            const std::shared_ptr<iree::CompilerLibrary> &library,
            iree::DocumentParser &parser, bool shareTexts) {
  double parseMilliseconds = 0;
  std::optional<document::Document> answered; // freed after the answer
  const json reply =
      request.command == "lowered"     ? readLowered(request, library)
      : request.command == "attribute" ? printAttribute(request, library)
      : request.command == "parse"
          ? parse(request, parser, shareTexts, parseMilliseconds, answered)
          : programAnswer(request, library);
  const auto replyStart = std::chrono::steady_clock::now();
  // Its stderr first: the caller, on reading this line, has all of it.
  if (std::getenv("TILESCOPE_WORKER_TIMING"))
    std::fprintf(stderr, "tilescope-iree-worker: parse %.1f ms\n",
                 parseMilliseconds);
  std::fflush(stderr);
  std::string line = exporting::jsonText(reply);
  if (request.id) // the reply is an object with at least "ok"
    line.replace(0, 1, "{\"id\":" + std::to_string(*request.id) + ",");
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
  if (std::getenv("TILESCOPE_WORKER_TIMING"))
    std::fprintf(stderr, "tilescope-iree-worker: reply %.1f ms\n",
                 std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - replyStart)
                     .count());
  parser.releaseModules();
  return reply.value("ok", false);
}

struct Job {
  const Request *request = nullptr;
  std::shared_ptr<iree::CompilerLibrary> library;
  int exitCode = 0;
};

// serve: one request a line until stdin ends, on one IREE context.
void serve(Job &job) {
  iree::DocumentParser parser(job.library);
  std::string line;
  while (std::getline(std::cin, line)) {
    auto request = requestFromLine(line);
    if (request && request->payload) {
      std::string &payload = *request->payload;
      std::cin.read(payload.data(),
                    static_cast<std::streamsize>(payload.size()));
      if (static_cast<size_t>(std::cin.gcount()) != payload.size())
        return; // the caller went before it said it all
    }
    if (!request) {
      // A refused request's payload is still its: read past it, so the
      // next line is the next request.
      const json value = json::parse(line, nullptr, false);
      if (value.is_object())
        if (auto bytes = payloadBytesOf(value); bytes && *bytes)
          std::cin.ignore(static_cast<std::streamsize>(**bytes));
      const std::string reply = exporting::jsonText(
          json{{"ok", false},
               {"error", "tilescope-iree-worker: " + request.error()}});
      std::fwrite(reply.data(), 1, reply.size(), stdout);
      std::fputc('\n', stdout);
      std::fflush(stdout);
      continue;
    }
    answer(*request, job.library, parser, true);
  }
}

void *runOnLargeStack(void *argument) {
  Job &job = *static_cast<Job *>(argument);
  if (job.request->command == "serve") {
    serve(job);
    return nullptr;
  }
  iree::DocumentParser parser(job.library);
  job.exitCode = answer(*job.request, job.library, parser, false) ? 0 : 1;
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
              << std::endl;
    return 2;
  }
  if (request->command == "serve")
    std::cout << exporting::jsonText(json{{"ready", true}}) << std::endl;

  Job job;
  job.request = &*request;
  job.library = *library;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kParserStackBytes);
  pthread_t thread;
  if (pthread_create(&thread, &attributes, runOnLargeStack, &job) != 0) {
    // No large stack to be had: run here (the nesting limit still holds).
    runOnLargeStack(&job);
  } else {
    pthread_join(thread, nullptr);
  }
  pthread_attr_destroy(&attributes);
  return job.exitCode;
}
