#include "core/edit/EditJournal.h"

#include "core/util/Files.h"
#include "core/util/Hash.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace tilescope::edit {
namespace {

using json = nlohmann::json;

constexpr int kFormat = 1;

std::string utcNow() {
  const std::time_t now =
      std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

} // namespace

std::string textHash(std::string_view text) { return Fnv1a().add(text).hex(); }

EditJournal EditJournal::of(const EditableDocument &document,
                            const std::filesystem::path &path) {
  EditJournal journal;
  journal.path = path.string();
  journal.originalHash = textHash(document.originalText());
  journal.writtenAt = utcNow();
  for (const Edit &edit : document.edits()) {
    JournalEntry entry{edit.op, edit.field.name(), std::nullopt};
    if (!edit.newValue.empty())
      entry.value = edit.newValue;
    journal.entries.push_back(std::move(entry));
  }
  return journal;
}

std::string EditJournal::toJson() const {
  json entriesJson = json::array();
  for (const JournalEntry &entry : entries) {
    json item = {{"dispatch", entry.op.dispatch},
                 {"op", entry.op.op},
                 {"field", entry.field}};
    item["value"] = entry.value ? json(*entry.value) : json(nullptr);
    entriesJson.push_back(std::move(item));
  }
  const json root = {{"tilescope_edit_journal", kFormat},
                     {"path", path},
                     {"original_hash", originalHash},
                     {"written_at", writtenAt},
                     {"edits", entriesJson}};
  return root.dump(2) + "\n";
}

Result<EditJournal> EditJournal::fromJson(std::string_view text) {
  const json root = json::parse(text, nullptr, false);
  if (root.is_discarded() || !root.is_object())
    return Error{"not a JSON object"};
  // Read as a number only where it is one (a string there is another
  // file, not a crash of the window that offers to recover it).
  const auto format = root.find("tilescope_edit_journal");
  if (format == root.end() || !format->is_number_integer() ||
      format->get<long long>() != kFormat)
    return Error{"not a Tilescope edit journal (format " +
                 std::to_string(kFormat) + ")"};
  try {
    EditJournal journal;
    journal.path = root.at("path").get<std::string>();
    journal.originalHash = root.at("original_hash").get<std::string>();
    journal.writtenAt = root.value("written_at", "");
    for (const json &item : root.at("edits")) {
      JournalEntry entry;
      entry.op.dispatch = item.at("dispatch").get<size_t>();
      entry.op.op = item.at("op").get<size_t>();
      entry.field = item.at("field").get<std::string>();
      if (!item.at("value").is_null())
        entry.value = item.at("value").get<std::string>();
      journal.entries.push_back(std::move(entry));
    }
    return journal;
  } catch (const json::exception &error) {
    return Error{std::string("a malformed edit journal: ") + error.what()};
  }
}

bool EditJournal::appliesTo(std::string_view originalText) const {
  return originalHash == textHash(originalText);
}

std::filesystem::path journalFile(const std::filesystem::path &directory,
                                  const std::filesystem::path &documentPath) {
  std::error_code error;
  std::filesystem::path absolute =
      std::filesystem::absolute(documentPath, error);
  if (error)
    absolute = documentPath;
  return directory / (absolute.filename().string() + "." +
                      textHash(absolute.lexically_normal().string()) + ".json");
}

Result<bool> writeJournal(const EditJournal &journal,
                          const std::filesystem::path &file) {
  std::error_code error;
  std::filesystem::create_directories(file.parent_path(), error);
  if (error)
    return Error{"cannot create " + file.parent_path().string() + ": " +
                 error.message()};
  return writeFileAtomically(file, journal.toJson());
}

Result<EditJournal> readJournal(const std::filesystem::path &file) {
  auto text = readTextFile(file);
  if (!text)
    return Error{text.error()};
  auto journal = EditJournal::fromJson(*text);
  if (!journal)
    return Error{file.string() + ": " + journal.error()};
  return journal;
}

Result<size_t> replay(const EditJournal &journal, std::string_view originalText,
                      const JournalApply &apply) {
  if (!journal.appliesTo(originalText))
    return Error{journal.path + " changed since the edits were made"};
  size_t applied = 0;
  for (const JournalEntry &entry : journal.entries) {
    auto made = apply(entry);
    if (!made)
      return Error{"edit " + std::to_string(applied + 1) + " (" + entry.field +
                   "): " + made.error()};
    ++applied;
  }
  return applied;
}

} // namespace tilescope::edit
