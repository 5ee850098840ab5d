#include "core/util/Csv.h"

#include <charconv>

namespace tilescope {

Result<std::vector<CsvRow>> parseCsv(std::string_view text) {
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string field;
  bool quoted = false, anything = false;
  size_t fields = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (rows.size() >= kMaxCsvRows || fields >= kMaxCsvFields)
      return Error{"a comma-separated table of more than " +
                   std::to_string(kMaxCsvRows) + " rows or " +
                   std::to_string(kMaxCsvFields) +
                   " fields is not read (the limit was reached at byte " +
                   std::to_string(i) + ")"};
    const char c = text[i];
    anything = true;
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      ++fields;
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
        ++i;
      ++fields;
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
      anything = false;
    } else {
      field += c;
    }
  }
  if (anything) {
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::optional<double> parseCsvNumber(std::string_view text) {
  std::string digits;
  for (char c : text)
    if (c != ',' && c != ' ' && c != '\t')
      digits += c;
  if (digits.empty())
    return std::nullopt;
  double value = 0;
  auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size())
    return std::nullopt;
  return value;
}

CsvTable::CsvTable(std::vector<CsvRow> rows) {
  if (rows.empty())
    return;
  names = std::move(rows.front());
  body.assign(std::make_move_iterator(rows.begin() + 1),
              std::make_move_iterator(rows.end()));
}

std::optional<size_t> CsvTable::column(std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return i;
  return std::nullopt;
}

std::string CsvTable::value(const CsvRow &row, std::string_view name) const {
  auto at = column(name);
  return at && *at < row.size() ? row[*at] : std::string();
}

std::optional<double> CsvTable::number(const CsvRow &row,
                                       std::string_view name) const {
  return parseCsvNumber(value(row, name));
}

} // namespace tilescope
