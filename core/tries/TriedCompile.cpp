#include "core/tries/TriedCompile.h"

#include "core/service/UntrustedFiles.h"
#include "core/tries/JobJson.h"

#include <algorithm>
#include <limits>

using nlohmann::json;

namespace tilescope::tries {
namespace {

constexpr long long kMostLine = std::numeric_limits<int>::max();

json diagnosticJson(const document::Diagnostic &d) {
  return {{"file", d.file},
          {"line", d.line},
          {"column", d.column},
          {"message", d.message}};
}

// A place and message (file, line, column, message) as kept.
document::Diagnostic diagnosticOf(const json &in) {
  document::Diagnostic d;
  d.file = service::stringField(in, "file");
  d.line = static_cast<int>(
      service::integerField(in, "line", 0, kMostLine).value_or(0));
  d.column = static_cast<int>(
      service::integerField(in, "column", 0, kMostLine).value_or(0));
  d.message = service::stringField(in, "message");
  return d;
}

service::CompileDiagnostic compileDiagnosticOf(const json &in) {
  service::CompileDiagnostic c;
  c.diagnostic = diagnosticOf(in);
  c.diagnostic.severity =
      document::severityFromString(service::stringField(in, "severity"));
  if (const auto notes = in.find("notes");
      notes != in.end() && notes->is_array())
    for (const json &note : *notes)
      if (note.is_object()) {
        c.diagnostic.notes.push_back(diagnosticOf(note));
        c.diagnostic.notes.back().severity = document::Severity::Note;
      }
  c.dispatch = service::stringField(in, "dispatch");
  c.rootOp = static_cast<int>(
      service::integerField(in, "root_op", -1, kMostLine).value_or(-1));
  c.field = service::stringField(in, "field");
  return c;
}

// A path the JSON holds, or null where there is none.
json pathOrNull(const std::string &path) {
  return path.empty() ? json(nullptr) : json(path);
}

} // namespace

TriedCompile triedCompileOf(const service::CompileJobResult &compiled) {
  TriedCompile c;
  c.command = compiled.spec.shellCommand();
  c.outcome = outcomeOf(compiled);
  c.status = compiled.process.describe();
  c.seconds = compiled.process.elapsed.count() / 1000.0;
  c.summary = compiled.summary();
  c.backend = compiled.backend;
  c.diagnostics = compiled.diagnostics;
  const service::CompileArtifacts &a = compiled.artifacts;
  c.files.directory = a.directory.string();
  c.files.input = a.input.string();
  c.files.command = a.command.string();
  c.files.log = a.log.string();
  if (compiled.succeeded())
    c.files.module = a.module.string();
  std::error_code error;
  if (!a.reproducer.empty() && std::filesystem::exists(a.reproducer, error))
    c.files.reproducer = a.reproducer.string();
  for (const auto &file : a.assembly())
    c.files.assembly.push_back(file.string());
  return c;
}

json toJson(const TriedCompile &c) {
  json diagnostics = json::array();
  for (const service::CompileDiagnostic &d : c.diagnostics) {
    json notes = json::array();
    for (const document::Diagnostic &note : d.diagnostic.notes)
      notes.push_back(diagnosticJson(note));
    json entry = diagnosticJson(d.diagnostic);
    entry["severity"] = document::toString(d.diagnostic.severity);
    entry["notes"] = notes;
    entry["dispatch"] = d.dispatch;
    entry["root_op"] = d.rootOp;
    entry["field"] = d.field;
    diagnostics.push_back(std::move(entry));
  }
  return {{"command", c.command},
          {"outcome", c.outcome},
          {"status", c.status},
          {"seconds", c.seconds},
          {"summary", c.summary},
          {"backend", c.backend},
          {"diagnostics", diagnostics},
          {"artifacts",
           {{"directory", c.files.directory},
            {"input", c.files.input},
            {"command", c.files.command},
            {"log", c.files.log},
            {"module", pathOrNull(c.files.module)},
            {"assembly", c.files.assembly},
            {"reproducer", pathOrNull(c.files.reproducer)}}}};
}

std::optional<TriedCompile> triedCompileFromJson(const json &in) {
  if (!in.is_object())
    return std::nullopt;
  TriedCompile c;
  c.command = service::stringField(in, "command");
  c.outcome = service::stringField(in, "outcome");
  c.status = service::stringField(in, "status");
  c.seconds = std::max(0.0, service::numberField(in, "seconds").value_or(0));
  c.summary = service::stringField(in, "summary");
  c.backend = service::stringField(in, "backend");
  if (const auto diagnostics = in.find("diagnostics");
      diagnostics != in.end() && diagnostics->is_array())
    for (const json &d : *diagnostics)
      if (d.is_object())
        c.diagnostics.push_back(compileDiagnosticOf(d));
  if (const json *a = service::objectField(in, "artifacts")) {
    c.files.directory = service::stringField(*a, "directory");
    c.files.input = service::stringField(*a, "input");
    c.files.command = service::stringField(*a, "command");
    c.files.log = service::stringField(*a, "log");
    c.files.module = service::stringField(*a, "module");
    c.files.reproducer = service::stringField(*a, "reproducer");
    c.files.assembly = service::stringsField(*a, "assembly");
  }
  return c;
}

} // namespace tilescope::tries
