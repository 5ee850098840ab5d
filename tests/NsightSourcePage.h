// Nsight Compute's source page (`ncu --import R.ncu-rep --page source
// --print-source sass --csv`) written for a test from a kernel's SASS and
// chosen counters, in the form ncu prints it: the application's own lines
// first, a "Kernel Name" row, the header (a "#" column, the stall reasons
// as stall_REASON beside their "(Not Issued)" columns), and a quoted row
// per instruction at its program counter, numbers with thousands
// separators. No GPU lends the tests a real one; tests/data/gpu/ holds
// those measured.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::test {

// One row of the page: the address, the SASS and its counters.
struct Row {
  uint64_t address = 0;
  std::string text;
  double executed = 0, samples = 0, longScoreboard = 0, barrier = 0;
  double wavefronts = 0, wavefrontsIdeal = 0;
};

inline std::string withSeparators(double value) {
  std::string digits = std::to_string(static_cast<long long>(value)), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

inline std::string quoted(const std::string &text) {
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

inline char hexDigit(uint64_t value) { return "0123456789abcdef"[value & 15]; }

inline std::string hexOf(uint64_t value) {
  std::string digits;
  do {
    digits.insert(digits.begin(), hexDigit(value));
    value >>= 4;
  } while (value);
  return "0x" + digits;
}

// The page as ncu prints it, after the application's own lines.
inline std::string sourcePage(const std::string &kernel,
                              const std::vector<Row> &rows) {
  std::string out = "==PROF== Connected to process 4242\n"
                    "iree-benchmark-module: one line of its own\n";
  out += "\"Kernel Name\"," + quoted(kernel) + "\n";
  out += "\"#\",\"Address\",\"Source\",\"Warp Stall Sampling (All "
         "Samples)\",\"Warp Stall Sampling (Not-issued Samples)\","
         "\"Instructions Executed\",\"L1 Wavefronts Shared\",\"L1 Wavefronts "
         "Shared Ideal\",\"stall_long_sb\",\"stall_long_sb (Not Issued)\","
         "\"stall_barrier\"\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &r = rows[i];
    out += quoted(std::to_string(i + 1)) + "," + quoted(hexOf(r.address)) +
           "," + quoted(r.text) + "," + quoted(withSeparators(r.samples)) +
           "," + quoted(withSeparators(r.samples / 2)) + "," +
           quoted(withSeparators(r.executed)) + "," +
           quoted(withSeparators(r.wavefronts)) + "," +
           quoted(withSeparators(r.wavefrontsIdeal)) + "," +
           quoted(withSeparators(r.longScoreboard)) + ",\"7\"," +
           quoted(withSeparators(r.barrier)) + "\n";
  }
  return out;
}

} // namespace tilescope::test
