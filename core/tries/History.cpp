#include "core/tries/History.h"

#include "core/export/ConfigJson.h"
#include "core/tries/JobJson.h"
#include "core/util/Printable.h"

#include "core/util/Files.h"

#include <algorithm>
#include <sqlite3.h>

#include <ctime>
#include <mutex>
#include <set>
#include <string_view>

namespace tilescope::tries {

struct History::Connection {
  sqlite3 *db = nullptr;
  ~Connection() {
    if (db)
      sqlite3_close(db);
  }
};

nlohmann::json detailsJson(const TryRecord &record) {
  nlohmann::json details = record.details;
  if (!details.is_object())
    details = nlohmann::json::object();
  details["configs"] = toJson(record.configs);
  if (record.resources)
    details["resources"] = toJson(*record.resources);
  if (record.prediction)
    details["prediction"] = exporting::toJson(*record.prediction);
  if (record.compile)
    details["compile"] = toJson(*record.compile);
  if (record.bench)
    details["bench"] = toJson(*record.bench);
  if (record.imported)
    addOrigin(*record.imported, details);
  if (!record.resourcesError.empty())
    details["resources_error"] = record.resourcesError;
  if (record.dispatchAlone)
    details["dispatch_alone"] = toJson(*record.dispatchAlone);
  if (!record.program.empty())
    details["program"] = record.program;
  if (record.check)
    details["check"] = toJson(*record.check);
  addWhere(record.where, details);
  return details;
}

namespace {

constexpr const char *kSchema = R"sql(
CREATE TABLE IF NOT EXISTS tries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  created_at TEXT NOT NULL,
  kind TEXT NOT NULL,
  document TEXT NOT NULL,
  op TEXT NOT NULL,
  target TEXT NOT NULL,
  device TEXT NOT NULL,
  outcome TEXT NOT NULL,
  summary TEXT NOT NULL,
  median_us REAL,
  check_passed INTEGER,
  directory TEXT NOT NULL,
  wall_seconds REAL NOT NULL,
  sweep TEXT NOT NULL,
  candidate TEXT NOT NULL,
  details TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tries_by_document ON tries(document, op);
CREATE INDEX IF NOT EXISTS tries_by_sweep ON tries(sweep, candidate);
)sql";

constexpr const char *kColumns =
    "id, created_at, kind, document, op, target, device, outcome, summary, "
    "median_us, check_passed, directory, wall_seconds, sweep, candidate, "
    "details";

std::string nowUtc() {
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Error sqliteError(sqlite3 *db, const std::string &what) {
  return Error{"history: " + what + ": " + sqlite3_errmsg(db)};
}

// A prepared statement, finalised when it goes.
struct Statement {
  sqlite3_stmt *statement = nullptr;
  ~Statement() { sqlite3_finalize(statement); }
};

std::string columnText(sqlite3_stmt *statement, int column) {
  const unsigned char *text = sqlite3_column_text(statement, column);
  return text ? reinterpret_cast<const char *>(text) : "";
}

TryRecord readRow(sqlite3_stmt *s) {
  TryRecord r;
  r.id = sqlite3_column_int64(s, 0);
  r.createdAt = columnText(s, 1);
  r.kind = columnText(s, 2);
  r.document = columnText(s, 3);
  r.op = columnText(s, 4);
  r.target = columnText(s, 5);
  r.device = columnText(s, 6);
  r.outcome = columnText(s, 7);
  r.summary = columnText(s, 8);
  if (sqlite3_column_type(s, 9) != SQLITE_NULL)
    r.medianMicroseconds = sqlite3_column_double(s, 9);
  if (sqlite3_column_type(s, 10) != SQLITE_NULL)
    r.checkPassed = sqlite3_column_int(s, 10) != 0;
  r.directory = columnText(s, 11);
  r.wallSeconds = sqlite3_column_double(s, 12);
  r.sweep = columnText(s, 13);
  r.candidate = columnText(s, 14);
  r.details = nlohmann::json::parse(columnText(s, 15), nullptr, false);
  if (r.details.is_discarded() || !r.details.is_object())
    r.details = nlohmann::json::object();
  // The parts the record holds typed, taken out of the JSON.
  auto take = [&r](const char *key) {
    nlohmann::json part;
    if (const auto it = r.details.find(key); it != r.details.end()) {
      part = std::move(*it);
      r.details.erase(it);
    }
    return part;
  };
  r.configs = configsFromJson(take("configs"));
  if (nlohmann::json resources = take("resources"); resources.is_object())
    r.resources = resourceReportFromJson(resources);
  r.prediction = costPredictionFromJson(take("prediction"));
  r.compile = triedCompileFromJson(take("compile"));
  r.bench = triedBenchFromJson(take("bench"));
  r.imported = bundleOriginFromJson(r.details);
  if (r.imported)
    for (const char *key : {"imported_from", "run_on", "compiled_in"})
      take(key);
  // A text the details hold under `key`, taken out; "" where none.
  auto takeText = [&take](const char *key) {
    const nlohmann::json text = take(key);
    return text.is_string() ? text.get<std::string>() : std::string();
  };
  r.resourcesError = takeText("resources_error");
  r.dispatchAlone = dispatchTakenFromJson(take("dispatch_alone"));
  r.check = triedCheckFromJson(take("check"));
  r.where = triedWhereFromJson(r.details);
  for (const char *key : {"on", "compiled_on", "compile_task"})
    take(key);
  r.program = takeText("program");
  return r;
}

std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

} // namespace

History::History(std::filesystem::path path,
                 std::unique_ptr<Connection> connection)
    : path(std::move(path)), connection(std::move(connection)) {}
History::History(History &&) noexcept = default;
History &History::operator=(History &&) noexcept = default;
History::~History() = default;

std::filesystem::path historyFile(const std::filesystem::path &workspace) {
  return workspace / "history.sqlite";
}

Result<History> History::open(const std::filesystem::path &file) {
  std::error_code error;
  if (file.has_parent_path())
    std::filesystem::create_directories(file.parent_path(), error);
  auto connection = std::make_unique<Connection>();
  if (sqlite3_open_v2(file.c_str(), &connection->db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                          SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK)
    return Error{
        "history: cannot open " + file.string() + ": " +
        (connection->db ? sqlite3_errmsg(connection->db) : "out of memory")};
  sqlite3 *db = connection->db;
  // Another process may hold the write lock for a moment: wait for it.
  sqlite3_busy_timeout(db, 10'000);
  char *message = nullptr;
  const std::string setup =
      std::string("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;") +
      kSchema;
  if (sqlite3_exec(db, setup.c_str(), nullptr, nullptr, &message) !=
      SQLITE_OK) {
    const std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return Error{"history: cannot set up " + file.string() + ": " + text};
  }
  return History(file, std::move(connection));
}

namespace {

// The process id in a try folder's name (YYYYMMDD-HHMMSS-PID-N).
std::string_view folderPid(std::string_view name) {
  const size_t second = name.find('-', name.find('-') + 1);
  if (second == std::string_view::npos)
    return {};
  const size_t third = name.find('-', second + 1);
  return third == std::string_view::npos
             ? std::string_view()
             : name.substr(second + 1, third - second - 1);
}

// Every folder name `path` passes through.
void addFolders(std::set<std::string> &names, const std::string &path) {
  for (const auto &part : std::filesystem::path(path))
    names.insert(part.string());
}

} // namespace

size_t History::removeOrphanTryFolders() const {
  const std::filesystem::path tries = path.parent_path() / "tries";
  std::error_code ec;
  if (!std::filesystem::is_directory(tries, ec))
    return 0;
  // Every folder name any row's directory passes through.
  std::set<std::string> referenced;
  Statement s;
  if (sqlite3_prepare_v2(connection->db, "SELECT directory FROM tries", -1,
                         &s.statement, nullptr) != SQLITE_OK)
    return 0;
  while (sqlite3_step(s.statement) == SQLITE_ROW)
    if (const unsigned char *text = sqlite3_column_text(s.statement, 0))
      addFolders(referenced, reinterpret_cast<const char *>(text));
  // And every path remote work still running names (a Slurm array's
  // candidates.tsv lists the try folders its tasks take their modules from;
  // a run killed while its tasks ran is reattached to them by the next).
  const std::filesystem::path slurm = path.parent_path() / "slurm";
  for (std::filesystem::recursive_directory_iterator it(slurm, ec), end;
       !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ".tsv" &&
        it->file_size(ec) < (16u << 20))
      if (auto text = readTextFile(it->path())) {
        std::string field;
        for (const char c : *text + "\n")
          if (c == '\t' || c == '\n') {
            addFolders(referenced, field);
            field.clear();
          } else {
            field += c;
          }
      }
  ec.clear();
  size_t removed = 0;
  for (std::filesystem::directory_iterator it(tries, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (referenced.count(name) || !it->is_directory(ec) ||
        !processGone(folderPid(name)))
      continue; // named, or its job may still record it
    std::error_code removing;
    if (std::filesystem::remove_all(it->path(), removing) > 0 && !removing)
      ++removed;
  }
  return removed;
}

Result<long long> History::add(TryRecord record) {
  // Once per process and history: the folders of tries whose process was
  // killed before it recorded them go (nothing refers to them, and no one
  // will).
  {
    static std::mutex mutex;
    static std::set<std::string> swept;
    const std::lock_guard<std::mutex> lock(mutex);
    if (swept.insert(path.string()).second)
      removeOrphanTryFolders();
  }
  sqlite3 *db = connection->db;
  if (record.createdAt.empty())
    record.createdAt = nowUtc();
  Statement s;
  const std::string sql =
      "INSERT INTO tries (created_at, kind, document, op, target, device, "
      "outcome, summary, median_us, check_passed, directory, wall_seconds, "
      "sweep, candidate, details) VALUES "
      "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s.statement, nullptr) !=
      SQLITE_OK)
    return sqliteError(db, "cannot prepare an insert");
  const std::string details = detailsJson(record).dump();
  const std::string *texts[] = {
      &record.createdAt, &record.kind,   &record.document, &record.op,
      &record.target,    &record.device, &record.outcome,  &record.summary};
  int column = 1;
  for (const std::string *text : texts)
    sqlite3_bind_text(s.statement, column++, text->c_str(), -1,
                      SQLITE_TRANSIENT);
  if (record.medianMicroseconds)
    sqlite3_bind_double(s.statement, column++, *record.medianMicroseconds);
  else
    sqlite3_bind_null(s.statement, column++);
  if (record.checkPassed)
    sqlite3_bind_int(s.statement, column++, *record.checkPassed ? 1 : 0);
  else
    sqlite3_bind_null(s.statement, column++);
  sqlite3_bind_text(s.statement, column++, record.directory.c_str(), -1,
                    SQLITE_TRANSIENT);
  sqlite3_bind_double(s.statement, column++, record.wallSeconds);
  sqlite3_bind_text(s.statement, column++, record.sweep.c_str(), -1,
                    SQLITE_TRANSIENT);
  sqlite3_bind_text(s.statement, column++, record.candidate.c_str(), -1,
                    SQLITE_TRANSIENT);
  sqlite3_bind_text(s.statement, column++, details.c_str(), -1,
                    SQLITE_TRANSIENT);
  if (sqlite3_step(s.statement) != SQLITE_DONE)
    return sqliteError(db, "cannot add a try to " + path.string());
  return static_cast<long long>(sqlite3_last_insert_rowid(db));
}

Result<TryRecord> History::get(long long id) const {
  sqlite3 *db = connection->db;
  Statement s;
  const std::string sql =
      std::string("SELECT ") + kColumns + " FROM tries WHERE id = ?";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s.statement, nullptr) !=
      SQLITE_OK)
    return sqliteError(db, "cannot prepare a query");
  sqlite3_bind_int64(s.statement, 1, id);
  const int step = sqlite3_step(s.statement);
  if (step == SQLITE_ROW)
    return readRow(s.statement);
  if (step == SQLITE_DONE)
    return Error{"history: no try " + std::to_string(id) + " in " +
                 path.string()};
  return sqliteError(db, "cannot read try " + std::to_string(id));
}

Result<std::vector<TryRecord>>
History::list(const HistoryFilter &filter) const {
  sqlite3 *db = connection->db;
  std::string sql = std::string("SELECT ") + kColumns + " FROM tries";
  std::vector<std::pair<const char *, const std::string *>> conditions;
  for (auto [column, value] :
       {std::pair{"document", &filter.document}, std::pair{"op", &filter.op},
        std::pair{"kind", &filter.kind}, std::pair{"outcome", &filter.outcome},
        std::pair{"sweep", &filter.sweep}})
    if (!value->empty())
      conditions.emplace_back(column, value);
  for (size_t i = 0; i < conditions.size(); ++i)
    sql += std::string(i == 0 ? " WHERE " : " AND ") + conditions[i].first +
           " = ?";
  sql += " ORDER BY id DESC";
  if (filter.limit > 0)
    sql += " LIMIT " + std::to_string(filter.limit);
  Statement s;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s.statement, nullptr) !=
      SQLITE_OK)
    return sqliteError(db, "cannot prepare a query");
  for (size_t i = 0; i < conditions.size(); ++i)
    sqlite3_bind_text(s.statement, static_cast<int>(i + 1),
                      conditions[i].second->c_str(), -1, SQLITE_TRANSIENT);
  std::vector<TryRecord> records;
  int step;
  while ((step = sqlite3_step(s.statement)) == SQLITE_ROW)
    records.push_back(readRow(s.statement));
  if (step != SQLITE_DONE)
    return sqliteError(db, "cannot list tries");
  return records;
}

nlohmann::json toJson(const TryRecord &r) {
  nlohmann::json out = {{"id", r.id},
                        {"created_at", r.createdAt},
                        {"kind", r.kind},
                        {"document", r.document},
                        {"op", r.op},
                        {"target", r.target},
                        {"device", r.device},
                        {"outcome", r.outcome},
                        {"summary", r.summary},
                        {"directory", r.directory},
                        {"wall_seconds", r.wallSeconds},
                        {"details", detailsJson(r)}};
  out["median_us"] =
      r.medianMicroseconds ? nlohmann::json(*r.medianMicroseconds) : nullptr;
  out["check_passed"] =
      r.checkPassed ? nlohmann::json(*r.checkPassed) : nullptr;
  if (!r.sweep.empty()) {
    out["sweep"] = r.sweep;
    out["candidate"] = r.candidate;
  }
  return out;
}

const std::vector<std::string> &tryOutcomes() {
  static const std::vector<std::string> outcomes = {
      "ok",          "compile-failed", "compiler-crashed", "timed-out",
      "cancelled",   "run-failed",     "check-failed",     "cannot-run-here",
      "interrupted", "node-failed"};
  return outcomes;
}

bool isTryOutcome(const std::string &outcome) {
  return std::find(tryOutcomes().begin(), tryOutcomes().end(), outcome) !=
         tryOutcomes().end();
}

std::string tryOutcomeList() {
  std::string text;
  for (const std::string &outcome : tryOutcomes())
    text += (text.empty() ? "" : ", ") + outcome;
  return text;
}

std::string historyCsv(const std::vector<TryRecord> &records) {
  std::string csv = "id,created_at,kind,document,op,target,device,outcome,"
                    "median_us,check_passed,wall_seconds,sweep,candidate,"
                    "directory,summary\n";
  for (const TryRecord &r : records) {
    const std::string fields[] = {
        std::to_string(r.id),
        r.createdAt,
        r.kind,
        r.document,
        r.op,
        r.target,
        r.device,
        r.outcome,
        r.medianMicroseconds ? std::to_string(*r.medianMicroseconds) : "",
        r.checkPassed ? (*r.checkPassed ? "pass" : "fail") : "",
        std::to_string(r.wallSeconds),
        r.sweep,
        r.candidate,
        r.directory,
        r.summary};
    bool first = true;
    for (const std::string &field : fields) {
      csv += (first ? "" : ",") + csvField(printable(field));
      first = false;
    }
    csv += "\n";
  }
  return csv;
}

} // namespace tilescope::tries
