#include "core/jobs/DocumentWorker.h"

#include "core/export/DocumentJson.h"
#include "core/export/LoweredJson.h"
#include "core/iree/SplitInput.h"
#include "core/jobs/Process.h"
#include "core/util/Files.h"

#include <nlohmann/json.hpp>
#include <regex>

namespace fs = std::filesystem;

namespace tilescope::jobs {
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

// The worker's JSON answer on stdout; an Error says how it ended without
// one (with the start of what it said on stderr).
Result<nlohmann::json> replyOf(const ProcessResult &result,
                               const std::string &bufferName) {
  try {
    return nlohmann::json::parse(result.standardOutput);
  } catch (const nlohmann::json::exception &) {
    return Error{bufferName + ": Tilescope's parser process " +
                 result.describe() + " without an answer" +
                 (result.standardError.empty()
                      ? std::string()
                      : ": " + result.standardError.substr(0, 2000))};
  }
}

int countParts(const std::string &text, const iree::ParseOptions &options) {
  const bool split = iree::splitsInput(text, options);
  return split ? static_cast<int>(iree::splitInputFile(text, "").parts.size())
               : 1;
}

} // namespace

DocumentWorker::DocumentWorker(fs::path program, fs::path compilerLibrary)
    : program(std::move(program)), compilerLibrary(std::move(compilerLibrary)) {
}

Result<iree::Document>
DocumentWorker::parseFile(const fs::path &path,
                          const iree::ParseOptions &options) {
  diagnostics.clear();
  auto text = iree::readMlirFile(path);
  if (!text)
    return Error{text.error()};
  auto document = run(*text, path, path.string(), options);
  if (document)
    document->path = path;
  return document;
}

Result<iree::Document>
DocumentWorker::parseText(const std::string &text,
                          const std::string &bufferName,
                          const iree::ParseOptions &options) {
  diagnostics.clear();
  return run(text, {}, bufferName, options);
}

Result<iree::Document> DocumentWorker::run(const std::string &text,
                                           const fs::path &file,
                                           const std::string &bufferName,
                                           const iree::ParseOptions &options) {
  // What can be refused without IREE is refused here, with a precise place.
  if (!options.unguarded)
    if (auto refusal = iree::refuseBeforeParsing(
            text, bufferName, iree::splitsInput(text, options)))
      return Error{*refusal};

  std::vector<std::string> arguments = {
      "parse", "--iree", compilerLibrary.string(), "--buffer-name", bufferName};
  if (options.splitInputFile)
    arguments.push_back(*options.splitInputFile ? "--split-input-file"
                                                : "--no-split-input-file");
  if (options.unguarded)
    arguments.push_back("--unguarded");
  auto answer = exchange(std::move(arguments), text, file, bufferName,
                         "IREE's parser", countParts(text, options));
  if (!answer)
    return Error{answer.error()};

  auto parsed = replyOf(*answer, bufferName);
  if (!parsed)
    return Error{parsed.error()};
  nlohmann::json &reply = *parsed;
  if (!reply.is_object() || !reply.contains("ok") || !reply["ok"].is_boolean())
    return Error{bufferName + ": Tilescope's parser process answered "
                              "something other than a parse result"};
  if (auto it = reply.find("diagnostics"); it != reply.end() && it->is_array())
    for (const auto &entry : *it)
      if (auto diagnostic = exporting::diagnosticFromJson(entry))
        diagnostics.push_back(std::move(*diagnostic));
  if (!reply["ok"].get<bool>()) {
    const auto error = reply.find("error");
    return Error{error != reply.end() && error->is_string()
                     ? error->get<std::string>()
                     : bufferName + ": IREE refused it"};
  }
  auto document = exporting::documentFromJson(reply["document"]);
  if (!document)
    return Error{bufferName +
                 ": Tilescope's parser process answered a "
                 "document it cannot read back: " +
                 document.error()};
  document->text = text;
  return document;
}

Result<ProcessResult>
DocumentWorker::exchange(std::vector<std::string> arguments,
                         const std::string &text, const fs::path &file,
                         const std::string &bufferName, const std::string &what,
                         int partCount) {
  // Text not on disk goes to the worker through a private file.
  std::optional<TemporaryDirectory> directory;
  fs::path input = file;
  if (input.empty()) {
    auto created = TemporaryDirectory::create("tilescope-parse");
    if (!created)
      return Error{created.error()};
    directory = std::move(*created);
    input = directory->file("buffer.mlir");
    if (auto written = writeFileAtomically(input, text); !written)
      return Error{written.error()};
  }

  ProcessSpec spec;
  spec.program = program;
  spec.arguments = std::move(arguments);
  spec.arguments.push_back(input.string());
  spec.timeout = timeout;
  spec.cancel = cancel;
  command = spec.shellCommand();
  ProcessResult result = runProcess(spec);

  switch (result.outcome) {
  case ProcessResult::Outcome::FailedToStart:
    return Error{"cannot start Tilescope's parser process " + program.string() +
                 ": " + result.startError};
  case ProcessResult::Outcome::Cancelled:
    return Error{bufferName + ": parsing was cancelled"};
  case ProcessResult::Outcome::TimedOut:
  case ProcessResult::Outcome::Signaled: {
    const std::string where = lastPart(result.standardError, partCount);
    const bool timedOut = result.outcome == ProcessResult::Outcome::TimedOut;
    // A buffer's private copy stays on disk for the reproducer.
    if (directory)
      directory->keep();
    return Error{bufferName + ": " + what + " " +
                 (timedOut
                      ? "did not finish" + where + " and " + result.describe()
                      : "crashed" + where + " (" + result.describe() + ")") +
                 "; Tilescope parses in a separate process and is unharmed. "
                 "To reproduce: " +
                 command};
  }
  case ProcessResult::Outcome::Exited:
    break;
  }
  return result;
}

Result<iree::LoweredFunction>
DocumentWorker::readLowered(const std::string &dumpText,
                            const std::string &bufferName) {
  diagnostics.clear();
  auto answer =
      exchange({"lowered", "--iree", compilerLibrary.string()}, dumpText, {},
               bufferName, "IREE reading its own IR", 1);
  if (!answer)
    return Error{answer.error()};
  auto parsed = replyOf(*answer, bufferName);
  if (!parsed)
    return Error{parsed.error()};
  const nlohmann::json &reply = *parsed;
  if (!reply.is_object() || !reply.value("ok", false)) {
    const auto error = reply.is_object() ? reply.find("error") : reply.end();
    return Error{
        bufferName + ": " +
        (reply.is_object() && error != reply.end() && error->is_string()
             ? error->get<std::string>()
             : std::string("IREE could not read it"))};
  }
  return exporting::loweredFunctionFromJson(reply["function"]);
}

} // namespace tilescope::jobs
