// Reading comma-separated text as RFC 4180 writes it: fields in double
// quotes may hold commas, newlines and doubled quotes. Profiler output and
// measured data sets come this way.
#pragma once

#include "core/util/Result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope {

using CsvRow = std::vector<std::string>;

// The most a table is read with: a row of every byte of a file (its 64 MiB
// of newlines) held 64 million rows, gigabytes; profilers' tables hold a
// row a dispatch or an instruction, some hundred thousand.
inline constexpr size_t kMaxCsvRows = size_t(1) << 20;
inline constexpr size_t kMaxCsvFields = size_t(1) << 24;

// Every row of `text`; an empty line is an empty row (one empty field) and
// "\r\n" line ends are read as "\n". An error past kMaxCsvRows rows or
// kMaxCsvFields fields.
Result<std::vector<CsvRow>> parseCsv(std::string_view text);

// A table with a header row: the value of `column` in `row`, by name.
class CsvTable {
public:
  explicit CsvTable(std::vector<CsvRow> rows);
  // The rows after the header.
  const std::vector<CsvRow> &rows() const { return body; }
  const CsvRow &header() const { return names; }
  std::optional<size_t> column(std::string_view name) const;
  // The field, or empty where the row is short or the column missing.
  std::string value(const CsvRow &row, std::string_view name) const;
  // The field as a number (thousands separators dropped), if it is one.
  std::optional<double> number(const CsvRow &row, std::string_view name) const;

private:
  CsvRow names;
  std::vector<CsvRow> body;
};

// "33,792" or " 28.5 " as a number; nullopt for anything else.
std::optional<double> parseCsvNumber(std::string_view text);

} // namespace tilescope
