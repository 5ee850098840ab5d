#include "core/run/Profiler.h"
#include "core/service/UntrustedFiles.h"

#include "core/util/Csv.h"
#include "core/util/Files.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>

using nlohmann::json;

namespace tilescope::run {
namespace {

// A count from a profiler's table: a whole number an int holds, else none
// (a CSV's "inf" or 1e30 is no count, and no undefined cast).
std::optional<int> countOf(std::optional<double> value) {
  if (!value || !std::isfinite(*value) || *value < 0 || *value > INT_MAX)
    return std::nullopt;
  return static_cast<int>(*value);
}

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Microseconds per unit of a time as ncu prints its unit.
double microsecondsPer(const std::string &unit) {
  if (unit == "nsecond" || unit == "ns")
    return 1e-3;
  if (unit == "msecond" || unit == "ms")
    return 1e3;
  if (unit == "second" || unit == "s")
    return 1e6;
  return 1; // "usecond"
}

// Bytes per unit of a size as ncu prints it (decimal prefixes, as ncu's
// documentation states for Kbyte and Mbyte).
double bytesPer(const std::string &unit) {
  if (unit == "Kbyte")
    return 1e3;
  if (unit == "Mbyte")
    return 1e6;
  if (unit == "Kibyte")
    return 1024;
  return 1;
}

// The kernel most rows name (IREE's dispatch benchmark launches one).
std::string mostNamed(const std::vector<std::string> &names) {
  std::map<std::string, int> counts;
  for (const std::string &name : names)
    ++counts[name];
  std::string best;
  int most = 0;
  for (const auto &[name, count] : counts)
    if (count > most) {
      best = name;
      most = count;
    }
  return best;
}

void fillTimes(ProfileReading &reading, const std::vector<double> &times) {
  reading.launches = static_cast<int>(times.size());
  reading.kernelMicroseconds = median(times);
  reading.minimumMicroseconds = *std::min_element(times.begin(), times.end());
  reading.maximumMicroseconds = *std::max_element(times.begin(), times.end());
}

} // namespace

Result<ProfileReading> parseNsightComputeCsv(const std::string &text) {
  // ncu's report starts at its header row; anything before it is the
  // application's output or ncu's ==PROF== lines.
  size_t start = std::string::npos;
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find('\n', at);
    if (text.compare(at, 5, "\"ID\",") == 0) {
      start = at;
      break;
    }
    if (end == std::string::npos)
      break;
    at = end + 1;
  }
  if (start == std::string::npos)
    return Error{"Nsight Compute printed no report (no \"ID\" header row)"};
  auto rows = parseCsv(std::string_view(text).substr(start));
  if (!rows)
    return Error{"Nsight Compute's report: " + rows.error()};
  CsvTable table(std::move(*rows));
  if (!table.column("gpu__time_duration.sum"))
    return Error{"Nsight Compute's report has no gpu__time_duration.sum"};
  // The row after the header holds the units.
  std::map<std::string, std::string> units;
  std::vector<const CsvRow *> launches;
  for (const CsvRow &row : table.rows()) {
    if (row.empty())
      continue;
    if (row.front().empty() && units.empty()) {
      for (size_t i = 0; i < row.size() && i < table.header().size(); ++i)
        units[table.header()[i]] = row[i];
      continue;
    }
    if (!parseCsvNumber(row.front()))
      continue; // ==PROF== or application lines after the report
    launches.push_back(&row);
  }
  if (launches.empty())
    return Error{"Nsight Compute's report holds no kernel launch"};

  ProfileReading reading;
  reading.tool = "ncu";
  std::vector<std::string> names;
  std::vector<double> times, achieved, dram;
  const double timeUnit = microsecondsPer(units["gpu__time_duration.sum"]);
  for (const CsvRow *row : launches) {
    names.push_back(table.value(*row, "Kernel Name"));
    if (auto t = table.number(*row, "gpu__time_duration.sum"))
      times.push_back(*t * timeUnit);
    if (auto a = table.number(
            *row, "sm__warps_active.avg.pct_of_peak_sustained_active"))
      achieved.push_back(*a);
    if (auto d = table.number(
            *row, "dram__throughput.avg.pct_of_peak_sustained_elapsed"))
      dram.push_back(*d);
  }
  if (times.empty())
    return Error{"Nsight Compute's report gives no kernel duration"};
  reading.kernel = mostNamed(names);
  fillTimes(reading, times);
  if (!achieved.empty())
    reading.achievedOccupancyPercent = median(achieved);
  if (!dram.empty())
    reading.dramThroughputPercent = median(dram);
  const CsvRow &first = *launches.front();
  if (auto t = table.number(first, "sm__maximum_warps_per_active_cycle_pct"))
    reading.theoreticalOccupancyPercent = *t;
  if (auto r = countOf(table.number(first, "launch__registers_per_thread")))
    reading.registersPerThread = *r;
  auto staticShared =
      table.number(first, "launch__shared_mem_per_block_static");
  auto dynamicShared =
      table.number(first, "launch__shared_mem_per_block_dynamic");
  if (staticShared || dynamicShared)
    if (auto bytes = countOf(
            staticShared.value_or(0) *
                bytesPer(units["launch__shared_mem_per_block_static"]) +
            dynamicShared.value_or(0) *
                bytesPer(units["launch__shared_mem_per_block_dynamic"])))
      reading.sharedMemoryBytes = *bytes;
  if (auto b = countOf(table.number(first, "launch__block_size")))
    reading.workgroupSize = *b;
  return reading;
}

Result<ProfileReading> parseRocprofKernelTrace(const std::string &trace,
                                               const std::string &counters) {
  auto rows = parseCsv(trace);
  if (!rows)
    return Error{"rocprofv3's kernel trace: " + rows.error()};
  CsvTable table(std::move(*rows));
  if (!table.column("Start_Timestamp") || !table.column("End_Timestamp"))
    return Error{"rocprofv3's kernel trace has no Start_Timestamp / "
                 "End_Timestamp columns"};
  auto first =
      [&table](
          const CsvRow &row,
          std::initializer_list<const char *> names) -> std::optional<double> {
    for (const char *name : names)
      if (auto v = table.number(row, name))
        return v;
    return std::nullopt;
  };
  ProfileReading reading;
  reading.tool = "rocprofv3";
  std::vector<std::string> names;
  std::vector<double> times;
  const CsvRow *example = nullptr;
  for (const CsvRow &row : table.rows()) {
    auto start = table.number(row, "Start_Timestamp");
    auto end = table.number(row, "End_Timestamp");
    if (!start || !end || *end < *start)
      continue;
    names.push_back(table.value(row, "Kernel_Name"));
    times.push_back((*end - *start) / 1000.0); // ns
    if (!example)
      example = &row;
  }
  if (times.empty())
    return Error{"rocprofv3's kernel trace holds no dispatch"};
  reading.kernel = mostNamed(names);
  fillTimes(reading, times);
  if (auto v = countOf(first(*example, {"Arch_VGPR_Count", "VGPR_Count"})))
    reading.vgprs = *v;
  if (auto v = countOf(first(*example, {"Accum_VGPR_Count"})))
    reading.agprs = *v;
  if (auto v = countOf(first(*example, {"SGPR_Count"})))
    reading.sgprs = *v;
  if (auto v = countOf(first(
          *example, {"LDS_Block_Size", "Group_Segment_Size", "LDS_Size"})))
    reading.sharedMemoryBytes = *v;
  if (auto x = first(*example, {"Workgroup_Size_X", "Workgroup_Size"}))
    if (auto threads =
            countOf(*x * first(*example, {"Workgroup_Size_Y"}).value_or(1) *
                    first(*example, {"Workgroup_Size_Z"}).value_or(1)))
      reading.workgroupSize = *threads;

  if (!counters.empty()) {
    auto counterRows = parseCsv(counters);
    if (!counterRows)
      return Error{"rocprofv3's counters: " + counterRows.error()};
    CsvTable counted(std::move(*counterRows));
    std::map<std::string, std::vector<double>> values;
    for (const CsvRow &row : counted.rows()) {
      const std::string name = counted.value(row, "Counter_Name");
      if (auto v = counted.number(row, "Counter_Value"); v && !name.empty())
        values[name].push_back(*v);
    }
    auto medianOf = [&values](const char *name) -> std::optional<double> {
      auto it = values.find(name);
      if (it == values.end() || it->second.empty())
        return std::nullopt;
      return median(it->second);
    };
    auto fetch = medianOf("FETCH_SIZE"), write = medianOf("WRITE_SIZE");
    if (fetch || write)
      reading.dramBytes = (fetch.value_or(0) + write.value_or(0)) * 1024.0;
    if (auto occupancy = medianOf("MeanOccupancyPerActiveCU"))
      reading.notes.push_back("mean waves resident per active CU: " +
                              std::to_string(*occupancy));
  }
  return reading;
}

Result<ProfileReading>
readRocprofOutput(const std::filesystem::path &directory) {
  std::error_code error;
  std::filesystem::path trace, counters;
  for (auto it =
           std::filesystem::recursive_directory_iterator(directory, error);
       !error && it != std::filesystem::recursive_directory_iterator();
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.ends_with("kernel_trace.csv") && trace.empty())
      trace = it->path();
    else if (name.ends_with("counter_collection.csv") && counters.empty())
      counters = it->path();
  }
  if (trace.empty())
    return Error{"rocprofv3 wrote no kernel_trace.csv under " +
                 directory.string()};
  auto traceText = service::readUntrustedFile(trace);
  if (!traceText)
    return Error{traceText.error()};
  std::string counterText;
  if (!counters.empty())
    if (auto text = service::readUntrustedFile(counters))
      counterText = *text;
  return parseRocprofKernelTrace(*traceText, counterText);
}

json toJson(const ProfileReading &r) {
  json out = {{"tool", r.tool},
              {"kernel", r.kernel},
              {"launches", r.launches},
              {"kernel_us", r.kernelMicroseconds},
              {"min_us", r.minimumMicroseconds},
              {"max_us", r.maximumMicroseconds}};
  auto put = [&out](const char *key, const auto &value) {
    if (value)
      out[key] = *value;
  };
  put("achieved_occupancy_pct", r.achievedOccupancyPercent);
  put("theoretical_occupancy_pct", r.theoreticalOccupancyPercent);
  put("dram_throughput_pct", r.dramThroughputPercent);
  put("dram_bytes", r.dramBytes);
  put("registers", r.registersPerThread);
  put("vgprs", r.vgprs);
  put("agprs", r.agprs);
  put("sgprs", r.sgprs);
  put("shared_memory_bytes", r.sharedMemoryBytes);
  put("workgroup_size", r.workgroupSize);
  if (!r.notes.empty())
    out["notes"] = r.notes;
  return out;
}

std::optional<ProfileReading> profileFromJson(const json &in) {
  // The history's (or a bundle's) JSON: each field used only with its type
  // and in its range.
  const auto kernelMicroseconds = service::numberField(in, "kernel_us");
  if (!kernelMicroseconds)
    return std::nullopt;
  constexpr long long kMostCount = 1ll << 30;
  ProfileReading r;
  r.tool = service::stringField(in, "tool");
  r.kernel = service::stringField(in, "kernel");
  r.launches = static_cast<int>(
      service::integerField(in, "launches", 0, kMostCount).value_or(0));
  r.kernelMicroseconds = *kernelMicroseconds;
  r.minimumMicroseconds = service::numberField(in, "min_us").value_or(0.0);
  r.maximumMicroseconds = service::numberField(in, "max_us").value_or(0.0);
  auto number = [&in](const char *key, std::optional<double> &field) {
    field = service::numberField(in, key);
  };
  auto count = [&in](const char *key, auto &field) {
    using T = typename std::remove_reference_t<decltype(field)>::value_type;
    if (auto value = service::integerField(in, key, 0, kMostCount))
      field = static_cast<T>(*value);
  };
  number("achieved_occupancy_pct", r.achievedOccupancyPercent);
  number("theoretical_occupancy_pct", r.theoreticalOccupancyPercent);
  number("dram_throughput_pct", r.dramThroughputPercent);
  number("dram_bytes", r.dramBytes);
  count("registers", r.registersPerThread);
  count("vgprs", r.vgprs);
  count("agprs", r.agprs);
  count("sgprs", r.sgprs);
  count("shared_memory_bytes", r.sharedMemoryBytes);
  count("workgroup_size", r.workgroupSize);
  r.notes = service::stringsField(in, "notes");
  return r;
}

} // namespace tilescope::run
