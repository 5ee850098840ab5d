// Seeded generators and bookkeeping for the property tests that compare
// Tilescope with the real IREE. Each test is a plain program:
//
//   property_X [--seed N] [--cases N] [--long]
//
// ctest runs the default (a few hundred cases, seed fixed so CI is
// reproducible); --long runs thousands. Every failure prints the seed and
// the case, so it can be replayed and pinned as a regression case.
#pragma once

#include "core/iree/CompilerLibrary.h"
#include "core/tools/IreeInstallation.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tilescope::property {

struct Options {
  uint64_t seed = 20261123;
  int cases = 0; // 0: the test's default
  bool longRun = false;
  bool verbose = false;
};

inline Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--long") {
      options.longRun = true;
    } else if (arg == "--verbose" || arg == "-v") {
      options.verbose = true;
    } else if (arg == "--seed" && i + 1 < argc) {
      options.seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--cases" && i + 1 < argc) {
      options.cases = std::atoi(argv[++i]);
    } else {
      std::cerr << "usage: " << argv[0]
                << " [--seed N] [--cases N] [--long] [--verbose]\n";
      std::exit(2);
    }
  }
  return options;
}

class Random {
public:
  explicit Random(uint64_t seed) : engine(seed) {}

  int64_t range(int64_t low, int64_t high) { // inclusive
    return std::uniform_int_distribution<int64_t>(low, high)(engine);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(engine); }
  template <typename T> const T &pick(const std::vector<T> &values) {
    return values[static_cast<size_t>(
        range(0, static_cast<int64_t>(values.size()) - 1))];
  }
  // A power of two in [low, high] (both powers of two).
  int64_t powerOfTwo(int64_t low, int64_t high) {
    std::vector<int64_t> choices;
    for (int64_t v = low; v <= high; v *= 2)
      choices.push_back(v);
    return pick(choices);
  }
  // A divisor of `n` that is a power of two, or n itself.
  int64_t divisor(int64_t n, int64_t maximum = 0) {
    std::vector<int64_t> choices;
    for (int64_t v = 1; v <= n; v *= 2)
      if (n % v == 0 && (maximum == 0 || v <= maximum))
        choices.push_back(v);
    if (maximum == 0 || n <= maximum)
      choices.push_back(n);
    return pick(choices);
  }
  // `total` (a power of two) split into `parts` powers of two.
  std::vector<int64_t> split(int64_t total, size_t parts) {
    std::vector<int64_t> counts(parts, 1);
    while (total > 1 && parts > 0) {
      counts[static_cast<size_t>(range(0, static_cast<int64_t>(parts) - 1))] *=
          2;
      total /= 2;
    }
    return counts;
  }
  std::vector<int64_t> permutation(size_t n) {
    std::vector<int64_t> values(n);
    std::iota(values.begin(), values.end(), 0);
    std::shuffle(values.begin(), values.end(), engine);
    return values;
  }
  std::mt19937_64 &generator() { return engine; }

private:
  std::mt19937_64 engine;
};

// Counts per family: how many cases were generated, compared, agreed, and
// why the others were not compared.
class Tally {
public:
  void generated(const std::string &family) { ++families[family].generated; }
  void agreed(const std::string &family) { ++families[family].agreed; }
  void skipped(const std::string &family, const std::string &why) {
    ++families[family].skipped[why];
  }
  void disagreed(const std::string &family, const std::string &report) {
    ++families[family].disagreed;
    failures.push_back("[" + family + "] " + report);
  }
  int disagreements() const { return static_cast<int>(failures.size()); }
  int agreedCount(const std::string &family) const {
    auto it = families.find(family);
    return it == families.end() ? 0 : it->second.agreed;
  }

  void print(std::ostream &out, uint64_t seed) const {
    out << "seed " << seed << "\n";
    for (const auto &[name, f] : families) {
      out << "  " << name << ": " << f.generated << " generated, " << f.agreed
          << " agree with IREE, " << f.disagreed << " disagree";
      for (const auto &[why, count] : f.skipped)
        out << ", " << count << " " << why;
      out << "\n";
    }
    for (const std::string &failure : failures)
      out << "\nDISAGREEMENT " << failure << "\n";
  }

private:
  struct Family {
    int generated = 0, agreed = 0, disagreed = 0;
    std::map<std::string, int> skipped;
  };
  std::map<std::string, Family> families;
  std::vector<std::string> failures;
};

inline std::string list(const std::vector<int64_t> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

// The project-local IREE (never $TILESCOPE_IREE_DIR: CI tests the pin).
inline tools::IreeInstallation projectIree() {
  tools::IreeSearchOptions options;
  options.useEnvironment = false;
  options.usePythonPackages = false;
  options.projectPrefixes = {TILESCOPE_IREE_PREFIX};
  auto installation = tools::locateIree(options);
  if (!installation) {
    std::cerr << installation.error() << "\n";
    std::exit(1);
  }
  return *installation;
}

// The project-local IREE's compiler library, loaded; a failure ends the run.
inline std::shared_ptr<iree::CompilerLibrary> projectLibrary() {
  auto library = iree::CompilerLibrary::load(projectIree().compilerLibrary);
  if (!library) {
    std::cerr << library.error() << "\n";
    std::exit(1);
  }
  return *library;
}

} // namespace tilescope::property
