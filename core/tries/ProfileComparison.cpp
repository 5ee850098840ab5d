#include "core/tries/ProfileComparison.h"

#include "core/service/UntrustedFiles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tilescope::tries {
namespace {

std::string number(const char *pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

bool apart(double a, double b, double tolerance) {
  return std::abs(a - b) > tolerance * std::max(std::abs(a), std::abs(b));
}

} // namespace

std::vector<ProfileRow> profileBesideTilescope(const ProfileInputs &in) {
  std::vector<ProfileRow> rows;
  if (!in.reading)
    return rows;
  const run::ProfileReading &r = *in.reading;
  const std::string measured = number("%.3f us", r.kernelMicroseconds);
  if (in.perDispatch)
    rows.push_back({"kernel time (per dispatch, back to back)",
                    number("%.3f us", in.perDispatch->median), measured,
                    "iree-benchmark-module, batched",
                    apart(in.perDispatch->median, r.kernelMicroseconds, 0.03)});
  if (in.prediction)
    rows.push_back(
        {"kernel time (predicted)",
         number("%.3f us", in.prediction->microseconds), measured, "cost model",
         apart(in.prediction->microseconds, r.kernelMicroseconds, 0.25)});
  const isa::KernelResources *k = in.resources;
  if (r.registersPerThread || (k && k->registers))
    rows.push_back(
        {"registers per thread",
         k && k->registers ? std::to_string(*k->registers) : "",
         r.registersPerThread ? std::to_string(*r.registersPerThread) : "",
         "ptxas -v",
         k && k->registers && r.registersPerThread &&
             *k->registers != *r.registersPerThread});
  if (r.vgprs || (k && k->vgprs))
    rows.push_back({"VGPRs", k && k->vgprs ? std::to_string(*k->vgprs) : "",
                    r.vgprs ? std::to_string(*r.vgprs) : "",
                    "AMDGPU kernel metadata",
                    k && k->vgprs && r.vgprs && *k->vgprs != *r.vgprs});
  if (r.agprs || (k && k->agprs))
    rows.push_back({"AGPRs", k && k->agprs ? std::to_string(*k->agprs) : "",
                    r.agprs ? std::to_string(*r.agprs) : "",
                    "AMDGPU kernel metadata",
                    k && k->agprs && r.agprs && *k->agprs != *r.agprs});
  if (r.sharedMemoryBytes || k)
    rows.push_back(
        {"shared memory per workgroup",
         k ? std::to_string(k->sharedMemoryBytes) + " B" : "",
         r.sharedMemoryBytes ? std::to_string(*r.sharedMemoryBytes) + " B" : "",
         "compile",
         k && r.sharedMemoryBytes &&
             k->sharedMemoryBytes != *r.sharedMemoryBytes});
  if (r.theoreticalOccupancyPercent || (k && k->occupancy)) {
    std::string ours;
    bool differs = false;
    if (k && k->occupancy && k->occupancy->maximum > 0) {
      const double pct = 100.0 * k->occupancy->active / k->occupancy->maximum;
      ours = number("%.2f %%", pct) + " (" +
             std::to_string(k->occupancy->active) + " " + k->occupancy->unit +
             ", by " + k->occupancy->limitedBy + ")";
      differs = r.theoreticalOccupancyPercent &&
                std::abs(pct - *r.theoreticalOccupancyPercent) > 0.5;
    }
    rows.push_back({"theoretical occupancy", ours,
                    r.theoreticalOccupancyPercent
                        ? number("%.2f %%", *r.theoreticalOccupancyPercent)
                        : "",
                    "occupancy tables", differs});
  }
  if (r.achievedOccupancyPercent)
    rows.push_back({"achieved occupancy", "",
                    number("%.2f %%", *r.achievedOccupancyPercent), "", false});
  std::optional<double> dram = r.dramThroughputPercent;
  if (!dram && r.dramBytes && in.peakMemoryBytesPerSecond > 0 &&
      r.kernelMicroseconds > 0)
    dram = 100 * *r.dramBytes / (r.kernelMicroseconds * 1e-6) /
           in.peakMemoryBytesPerSecond;
  if (dram) {
    std::string ours;
    if (in.prediction && in.prediction->floorMicroseconds > 0 &&
        in.prediction->microseconds > 0)
      // The floor's bytes at the predicted time: the DRAM share the
      // prediction implies (a lower bound where operands are re-read).
      ours = number("%.1f %%", 100 * in.prediction->floorMicroseconds /
                                   in.prediction->microseconds);
    rows.push_back({"DRAM throughput (of peak)", ours, number("%.1f %%", *dram),
                    ours.empty() ? "" : "cost model (roofline bytes)", false});
  }
  return rows;
}

nlohmann::json toJson(const std::vector<ProfileRow> &rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const ProfileRow &row : rows)
    out.push_back({{"quantity", row.quantity},
                   {"tilescope", row.tilescope},
                   {"profiler", row.profiler},
                   {"source", row.source},
                   {"differs", row.differs}});
  return out;
}

std::vector<ProfileRow> profileRowsFromJson(const nlohmann::json &rows) {
  std::vector<ProfileRow> out;
  if (!rows.is_array())
    return out;
  for (const nlohmann::json &row : rows)
    if (row.is_object())
      out.push_back({service::stringField(row, "quantity"),
                     service::stringField(row, "tilescope"),
                     service::stringField(row, "profiler"),
                     service::stringField(row, "source"),
                     service::flagField(row, "differs")});
  return out;
}

std::string profileTable(const std::vector<ProfileRow> &rows) {
  size_t width = 0;
  for (const ProfileRow &row : rows)
    width = std::max(width, row.quantity.size());
  std::string out;
  for (const ProfileRow &row : rows) {
    out += row.differs ? "! " : "  ";
    out += row.quantity + std::string(width - row.quantity.size(), ' ');
    out += "  Tilescope " + (row.tilescope.empty() ? "-" : row.tilescope);
    out += "  profiler " + (row.profiler.empty() ? "-" : row.profiler);
    if (!row.source.empty())
      out += "  (" + row.source + ")";
    out += "\n";
  }
  return out;
}

} // namespace tilescope::tries
