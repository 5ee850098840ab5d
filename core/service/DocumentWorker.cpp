#include "core/service/DocumentWorker.h"

#include "core/document/SplitInput.h"
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/export/LoweredJson.h"
#include "core/export/ProgramReductionsJson.h"
#include "core/process/ServingProcess.h"
#include "core/util/Files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <regex>

namespace fs = std::filesystem;

namespace tilescope::service {
namespace {

// The part the worker last said it was parsing ("tilescope-iree-worker:
// parsing part 3 from line 120"), for a crash message.
std::string lastPart(const std::string &standardError, int partCount) {
  static const std::regex pattern(R"(parsing part (\d+) from line (\d+))");
  std::string where;
  for (std::sregex_iterator
           it(standardError.begin(), standardError.end(), pattern),
       end;
       it != end; ++it)
    where = partCount > 1 ? " in part " + (*it)[1].str() + " (from line " +
                                (*it)[2].str() + ")"
                          : "";
  return where;
}

int countParts(const std::string &text, const iree::ParseOptions &options) {
  const bool split = iree::splitsInput(text, options);
  return split
             ? static_cast<int>(document::splitInputFile(text, "").parts.size())
             : 1;
}

// The idle workers of this process, by worker program and IREE library.
class WorkerPool {
public:
  static WorkerPool &shared() {
    static WorkerPool pool;
    return pool;
  }
  std::unique_ptr<process::ServingProcess> take(const std::string &key) {
    const std::lock_guard<std::mutex> lock(mutex);
    auto &kept = idle[key];
    while (!kept.empty()) {
      std::unique_ptr<process::ServingProcess> worker = std::move(kept.back());
      kept.pop_back();
      if (worker->running())
        return worker;
    }
    return nullptr;
  }
  void give(const std::string &key,
            std::unique_ptr<process::ServingProcess> worker) {
    // Its greeting is one of the lines it answered.
    if (!worker->running() ||
        worker->answered() > DocumentWorker::kAnswersPerWorker)
      return;
    const std::lock_guard<std::mutex> lock(mutex);
    auto &kept = idle[key];
    // Two callers at once (an open beside IREE's layouts) leave two; more
    // is memory for nothing.
    if (kept.size() < 2)
      kept.push_back(std::move(worker));
  }
  void clear() {
    const std::lock_guard<std::mutex> lock(mutex);
    idle.clear();
  }
  // At exit (the pool is a static): stop the idle workers, leaving their
  // reaping to whoever reaps this process's orphans, so that a one-shot
  // command does not wait on the kernel freeing a worker's memory.
  ~WorkerPool() {
    for (auto &[key, kept] : idle)
      for (auto &worker : kept)
        worker->stopWithoutReaping();
  }
  std::atomic<int> started{0};

private:
  std::mutex mutex;
  std::map<std::string, std::vector<std::unique_ptr<process::ServingProcess>>>
      idle;
};

// A request's line: the command, its number, where its text is (a file, or
// the payload's length: the text follows the line), and what the worker's
// command-line options say.
nlohmann::json requestOf(const std::string &commandName, long long id,
                         const std::vector<std::string> &options,
                         const fs::path &file, size_t payloadBytes) {
  nlohmann::json request = {{"command", commandName}, {"id", id}};
  if (file.empty())
    request["payload_bytes"] = payloadBytes;
  else
    request["file"] = file.string();
  for (size_t i = 0; i < options.size(); ++i) {
    if (options[i] == "--buffer-name" && i + 1 < options.size())
      request["buffer_name"] = options[i + 1];
    else if (options[i] == "--split-input-file" ||
             options[i] == "--no-split-input-file")
      request["split_input_file"] = options[i] == "--split-input-file";
    else if (options[i] == "--unguarded")
      request["unguarded"] = true;
    else if (options[i] == "--choices" && i + 1 < options.size())
      request["choices"] =
          nlohmann::json::parse(options[i + 1], nullptr, false);
  }
  return request;
}

// How a worker that gave no answer ended: timed out, crashed or exited,
// with the part of the file it was in and what it said.
std::string howItEnded(const process::ServingProcess::Answer &answer,
                       int partCount) {
  const process::ProcessResult &ending = answer.ending;
  const std::string where = lastPart(answer.standardError, partCount);
  if (ending.outcome == process::ProcessResult::Outcome::TimedOut)
    return "did not finish" + where + " and " + ending.describe();
  if (ending.outcome == process::ProcessResult::Outcome::Signaled)
    return "crashed" + where + " (" + ending.describe() + ")";
  return "ended without an answer" + where + " (" + ending.describe() +
         (answer.standardError.empty()
              ? std::string()
              : ": " + answer.standardError.substr(0, 2000)) +
         ")";
}

} // namespace

DocumentWorker::DocumentWorker(fs::path program, fs::path compilerLibrary)
    : program(std::move(program)), compilerLibrary(std::move(compilerLibrary)) {
}

int DocumentWorker::workersStarted() {
  return WorkerPool::shared().started.load();
}

void DocumentWorker::stopIdleWorkers() { WorkerPool::shared().clear(); }

std::string DocumentWorker::poolKey() const {
  return program.string() + '\n' + compilerLibrary.string();
}

Result<std::unique_ptr<process::ServingProcess>> DocumentWorker::startWorker() {
  process::ProcessSpec spec;
  spec.program = program;
  spec.arguments = {"serve", "--iree", compilerLibrary.string()};
  auto started = process::ServingProcess::start(spec);
  if (!started)
    return Error{"cannot start Tilescope's parser process " + program.string() +
                 ": " + started.error()};
  ++WorkerPool::shared().started;
  return started;
}

Result<bool> DocumentWorker::readiness(const std::string &greeting) const {
  const nlohmann::json hello = nlohmann::json::parse(greeting, nullptr, false);
  if (hello.is_object() && hello.value("ready", false))
    return true;
  if (hello.is_object() && hello.contains("error") &&
      hello["error"].is_string())
    return Error{hello["error"].get<std::string>()};
  return Error{
      "Tilescope's parser process " + program.string() +
      " greeted with something other than ready: " + greeting.substr(0, 200)};
}

Result<document::Document>
DocumentWorker::parseFile(const fs::path &path,
                          const iree::ParseOptions &options) {
  diagnostics.clear();
  // An empty path would read as an empty buffer: a document of nothing.
  if (path.empty())
    return Error{"no file given: the path is empty"};
  auto document = run({}, path, path.string(), options);
  if (document)
    document->path = path;
  return document;
}

Result<document::Document>
DocumentWorker::parseText(const std::string &text,
                          const std::string &bufferName,
                          const iree::ParseOptions &options) {
  diagnostics.clear();
  return run(text, {}, bufferName, options);
}

Result<document::Document>
DocumentWorker::run(std::string text, const fs::path &file,
                    const std::string &bufferName,
                    const iree::ParseOptions &options) {
  // The worker refuses what IREE must not see (a NUL byte, too deep a
  // nesting, a known crasher) with the same words DocumentParser has.
  std::vector<std::string> flags = {"--buffer-name", bufferName};
  if (options.splitInputFile)
    flags.push_back(*options.splitInputFile ? "--split-input-file"
                                            : "--no-split-input-file");
  if (options.unguarded)
    flags.push_back("--unguarded");
  // A file on disk is read here while the worker parses it: the document
  // keeps its text.
  std::optional<Error> unread;
  auto readText = [&] {
    if (file.empty())
      return;
    auto read = document::readMlirFile(file);
    if (read)
      text = std::move(*read);
    else
      unread = Error{read.error()};
  };
  auto answer = exchange("parse", std::move(flags), text, file, bufferName,
                         "IREE's parser", readText,
                         [&] { return countParts(text, options); });
  if (!answer)
    return Error{answer.error()};

  // Read from the text straight into the model (no JSON DOM): on a large
  // program the largest part of what an open costs beyond IREE's parse.
  auto reply = exporting::documentAnswerFromJsonText(*answer);
  if (!reply)
    return Error{bufferName +
                 ": Tilescope's parser process answered "
                 "something other than a parse result (" +
                 reply.error() + ")"};
  diagnostics = std::move(reply->diagnostics);
  if (!reply->ok)
    return Error{!reply->error.empty() ? reply->error
                                       : bufferName + ": IREE refused it"};
  if (unread) // IREE read it, and then it went (or changed) under us
    return *unread;
  if (!reply->documentError.empty())
    return Error{bufferName +
                 ": Tilescope's parser process answered a "
                 "document it cannot read back: " +
                 reply->documentError};
  Result<document::Document> document = std::move(reply->document);
  document->text = std::move(text);
  return document;
}

Result<std::string>
DocumentWorker::exchange(const std::string &commandName,
                         std::vector<std::string> options,
                         const std::string &text, const fs::path &file,
                         const std::string &bufferName, const std::string &what,
                         const std::function<void()> &meanwhile,
                         const std::function<int()> &partCount) {
  // The request, and the command that reproduces it in a worker of its own.
  // Each request carries a number the worker's answer begins with: an
  // answer to any other request is never taken for this one's. Text not on
  // disk follows the request line over the pipe, its length in the line.
  static std::atomic<long long> lastId{0};
  const long long id = ++lastId;
  const nlohmann::json request =
      requestOf(commandName, id, options, file, text.size());
  process::ProcessSpec reproducer;
  reproducer.program = program;
  reproducer.arguments = {commandName, "--iree", compilerLibrary.string()};
  reproducer.arguments.insert(reproducer.arguments.end(), options.begin(),
                              options.end());
  // A buffer is written to disk only where the request failed: the
  // reproducer's input, kept.
  auto reproduce = [&]() -> std::string {
    fs::path input = file;
    std::string unwritten;
    if (input.empty()) {
      auto created = TemporaryDirectory::create("tilescope-parse");
      if (created) {
        input = created->file("buffer.mlir");
        if (auto written = writeFileAtomically(input, text); written)
          created->keep();
        else
          unwritten = written.error();
      } else {
        unwritten = created.error();
      }
    }
    process::ProcessSpec spec = reproducer;
    spec.arguments.push_back(input.empty() ? "BUFFER.mlir" : input.string());
    command = spec.shellCommand();
    return unwritten.empty()
               ? command
               : command + " (its input could not be kept: " + unwritten + ")";
  };
  command.clear();

  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<process::ServingProcess> worker =
      WorkerPool::shared().take(poolKey());
  const bool fresh = !worker;
  if (fresh) {
    auto started = startWorker();
    if (!started)
      return Error{started.error()};
    worker = std::move(*started);
  }
  // The request waits in the pipe while a fresh worker loads IREE; a
  // payload longer than the pipe holds is written as the worker reads it.
  worker->tell(exporting::jsonText(request),
               file.empty() ? text : std::string(), timeout, cancel);
  if (meanwhile)
    meanwhile();
  auto left = [&] {
    return std::max(std::chrono::milliseconds(0),
                    timeout -
                        std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - start));
  };
  process::ServingProcess::Answer answer;
  if (fresh) {
    // A time-out or cancel while IREE loads is the request's; a worker that
    // cannot load IREE says why.
    answer = worker->listen(left(), cancel);
    if (answer.answered)
      if (auto ready = readiness(answer.line); !ready)
        return Error{ready.error()};
  }
  if (!fresh || answer.answered) {
    // What it said while loading counts as said to this request.
    std::string earlier = std::move(answer.standardError);
    answer = worker->listen(left(), cancel);
    answer.standardError.insert(0, earlier);
  }
  if (answer.answered) {
    const std::string stamp = "{\"id\":" + std::to_string(id) + ",";
    if (answer.line.compare(0, stamp.size(), stamp) != 0)
      // Out of step with its requests: not kept, and the answer not used.
      return Error{bufferName + ": " + what +
                   " answered another request than this one; that worker "
                   "is stopped, and the next request starts a fresh one"};
    WorkerPool::shared().give(poolKey(), std::move(worker));
    return std::move(answer.line);
  }

  if (answer.ending.outcome == process::ProcessResult::Outcome::Cancelled)
    return Error{bufferName + ": " +
                 (commandName == "parse" ? std::string("parsing") : what) +
                 " was cancelled"};
  return Error{bufferName + ": " + what + " " +
               howItEnded(answer, partCount()) +
               "; Tilescope parses in a separate process and is unharmed. "
               "To reproduce: " +
               reproduce()};
}

Result<nlohmann::json>
DocumentWorker::ask(const std::string &commandName,
                    std::vector<std::string> options, const std::string &text,
                    const fs::path &file, const std::string &bufferName,
                    const std::string &what, const char *key) {
  diagnostics.clear();
  auto answer = exchange(commandName, std::move(options), text, file,
                         bufferName, what, {}, [] { return 1; });
  if (!answer)
    return Error{answer.error()};
  nlohmann::json reply = nlohmann::json::parse(*answer, nullptr, false);
  if (!reply.is_object() || !reply.value("ok", false)) {
    const auto error = reply.is_object() ? reply.find("error") : reply.end();
    return Error{
        bufferName + ": " +
        (reply.is_object() && error != reply.end() && error->is_string()
             ? error->get<std::string>()
             : std::string("IREE could not read it"))};
  }
  if (!reply.contains(key))
    return Error{bufferName + ": Tilescope's IREE process answered without \"" +
                 key + "\""};
  return std::move(reply[key]);
}

Result<document::LoweredFunction>
DocumentWorker::readLowered(const std::string &dumpText,
                            const std::string &bufferName) {
  auto function = ask("lowered", {}, dumpText, {}, bufferName,
                      "IREE reading its own IR", "function");
  if (!function)
    return Error{function.error()};
  return exporting::loweredFunctionFromJson(*function);
}

Result<std::vector<document::ProgramReduction>>
DocumentWorker::programReductions(const std::string &text,
                                  const std::string &bufferName) {
  auto reductions =
      ask("reductions", {"--buffer-name", bufferName}, text, {}, bufferName,
          "IREE reading the split point", "reductions");
  if (!reductions)
    return Error{reductions.error()};
  auto read = exporting::arrayFromJson<document::ProgramReduction>(
      *reductions, exporting::programReductionFromJson);
  if (!read)
    return Error{bufferName + ": the reductions IREE read: " + read.error()};
  return read;
}

Result<std::string>
DocumentWorker::withSplits(const std::string &text,
                           const std::string &bufferName,
                           const std::vector<document::SplitChoice> &choices) {
  nlohmann::json written = nlohmann::json::array();
  for (const document::SplitChoice &choice : choices)
    written.push_back(exporting::toJson(choice));
  auto program = ask(
      "with-splits",
      {"--buffer-name", bufferName, "--choices", exporting::jsonText(written)},
      text, {}, bufferName, "IREE writing the splits", "program");
  if (!program)
    return Error{program.error()};
  if (!program->is_string())
    return Error{bufferName + ": IREE's program came back as no text"};
  return program->get<std::string>();
}

Result<std::vector<document::FormedDispatch>>
DocumentWorker::formedDispatches(const fs::path &flow) {
  auto dispatches =
      ask("dispatches", {"--buffer-name", flow.string()}, {}, flow,
          flow.string(), "IREE reading the formed dispatches", "dispatches");
  if (!dispatches)
    return Error{dispatches.error()};
  auto read = exporting::arrayFromJson<document::FormedDispatch>(
      *dispatches, exporting::formedDispatchFromJson);
  if (!read)
    return Error{flow.string() + ": the dispatches IREE read: " + read.error()};
  return read;
}

Result<std::vector<document::RootOpDag>>
DocumentWorker::rootOpDags(const std::string &text,
                           const std::string &bufferName) {
  auto dags = ask("dags", {"--buffer-name", bufferName}, text, {}, bufferName,
                  "IREE printing the root ops as spec matchers", "dags");
  if (!dags)
    return Error{dags.error()};
  auto read = exporting::arrayFromJson<document::RootOpDag>(
      *dags, exporting::rootOpDagFromJson);
  if (!read)
    return Error{bufferName + ": the root ops IREE printed: " + read.error()};
  return read;
}

Result<std::string>
DocumentWorker::printAttribute(const std::string &attributeText) {
  static const std::string kName = "<attribute>";
  auto printed = ask("attribute", {"--buffer-name", kName}, attributeText, {},
                     kName, "IREE reading the attribute", "attribute");
  if (!printed) {
    // IREE's diagnostics name the attribute themselves.
    std::string error = printed.error();
    if (error.rfind(kName + ": " + kName + ":", 0) == 0)
      error.erase(0, kName.size() + 2);
    return Error{error};
  }
  if (!printed->is_string())
    return Error{"IREE's print of the attribute came back as no text"};
  return printed->get<std::string>();
}

} // namespace tilescope::service
