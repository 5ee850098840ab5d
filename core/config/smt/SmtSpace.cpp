#include "core/config/smt/SmtSpace.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <set>

namespace tilescope::config {
namespace {

using Mask = uint64_t;
using Values = std::vector<std::optional<int64_t>>;

constexpr int64_t kNoLow = std::numeric_limits<int64_t>::min();
constexpr int64_t kNoHigh = std::numeric_limits<int64_t>::max();

// floor(a / b) and ceil(a / b) for b > 0.
int64_t floorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }
int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 && a > 0); }

std::vector<int64_t> divisorsOf(int64_t n) {
  std::vector<int64_t> small, large;
  const uint64_t m =
      n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  for (uint64_t d = 1; d * d <= m; ++d)
    if (m % d == 0) {
      small.push_back(static_cast<int64_t>(d));
      if (d * d != m)
        large.push_back(static_cast<int64_t>(m / d));
    }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

// What the asserts say of one variable once the others are fixed.
struct Domain {
  int64_t low = kNoLow, high = kNoHigh;
  std::optional<std::vector<int64_t>> values; // a finite set, when known

  void restrict(std::vector<int64_t> set) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    if (!values) {
      values = std::move(set);
      return;
    }
    std::vector<int64_t> both;
    std::set_intersection(values->begin(), values->end(), set.begin(),
                          set.end(), std::back_inserter(both));
    values = std::move(both);
  }
};

class Search {
public:
  Search(const SmtProgram &program, const SmtSpaceOptions &options)
      : program(program), options(options) {}

  Result<SmtSpace> run() {
    if (program.variables.size() > 64)
      return Error{"IREE's constraints have " +
                   std::to_string(program.variables.size()) +
                   " variables; Tilescope lists spaces of at most 64"};
    computeMasks();
    assignment.assign(program.variables.size(), std::nullopt);
    for (size_t v = 0; v < program.variables.size(); ++v)
      if (!program.variables[v].free) {
        knobs |= Mask{1} << v;
        space.knobs.push_back(program.variables[v].name);
      }
    for (const auto &[name, value] : options.pinned) {
      const int v = program.variable(name);
      if (v < 0)
        return Error{"'" + name + "' is not a knob of IREE's constraints"};
      assignment[static_cast<size_t>(v)] = value;
      assigned |= Mask{1} << v;
    }
    search();
    if (!failure.empty())
      return Error{failure};
    return std::move(space);
  }

private:
  void computeMasks() {
    masks.resize(program.nodes.size());
    for (size_t n = 0; n < program.nodes.size(); ++n) {
      const SmtNode &node = program.nodes[n];
      Mask m = 0;
      if (node.kind == SmtNode::Kind::Knob || node.kind == SmtNode::Kind::Free)
        m = Mask{1} << node.index;
      for (int o : node.operands)
        m |= masks[static_cast<size_t>(o)];
      masks[n] = m;
    }
  }

  const SmtNode &node(int n) const {
    return program.nodes[static_cast<size_t>(n)];
  }
  Mask mask(int n) const { return masks[static_cast<size_t>(n)]; }

  // c with value(x) == c * variable, the other factors known; none when x
  // is not such a product.
  std::optional<int64_t> coefficient(int x, int variable,
                                     const Values &v) const {
    const SmtNode &n = node(x);
    if ((n.kind == SmtNode::Kind::Knob || n.kind == SmtNode::Kind::Free) &&
        n.index == variable)
      return 1;
    if (n.kind != SmtNode::Kind::Mul)
      return std::nullopt;
    int64_t known = 1;
    std::optional<int64_t> inner;
    for (int o : n.operands) {
      if (mask(o) & (Mask{1} << variable)) {
        if (inner)
          return std::nullopt; // the variable twice: not linear
        inner = coefficient(o, variable, v);
        if (!inner)
          return std::nullopt;
      } else if (const std::optional<int64_t> k = v[static_cast<size_t>(o)]) {
        if (__builtin_mul_overflow(known, *k, &known))
          return std::nullopt;
      } else {
        return std::nullopt;
      }
    }
    if (!inner || __builtin_mul_overflow(known, *inner, &known) || known == 0)
      return std::nullopt;
    return known;
  }

  // `c * x  pred  k`, with c > 0: the bound it sets on x.
  static void bound(Domain &d, SmtNode::Predicate p, int64_t c, int64_t k) {
    switch (p) {
    case SmtNode::Predicate::Lt:
      d.high = std::min(d.high, floorDiv(k - 1, c));
      break;
    case SmtNode::Predicate::Le:
      d.high = std::min(d.high, floorDiv(k, c));
      break;
    case SmtNode::Predicate::Gt:
      d.low = std::max(d.low, ceilDiv(k + 1, c));
      break;
    case SmtNode::Predicate::Ge:
      d.low = std::max(d.low, ceilDiv(k, c));
      break;
    }
  }

  static SmtNode::Predicate mirrored(SmtNode::Predicate p) {
    switch (p) {
    case SmtNode::Predicate::Lt:
      return SmtNode::Predicate::Gt;
    case SmtNode::Predicate::Le:
      return SmtNode::Predicate::Ge;
    case SmtNode::Predicate::Gt:
      return SmtNode::Predicate::Lt;
    case SmtNode::Predicate::Ge:
      return SmtNode::Predicate::Le;
    }
    return p;
  }

  // One assert whose only open variable is `variable`: what it says of it.
  void learn(Domain &d, int condition, int variable, const Values &v) const {
    const SmtNode &c = node(condition);
    auto known = [&](int n) { return v[static_cast<size_t>(n)]; };
    if (c.kind == SmtNode::Kind::And) { // every conjunct holds
      for (int conjunct : c.operands)
        if (mask(conjunct) & (Mask{1} << variable))
          learn(d, conjunct, variable, v);
      return;
    }
    if (c.kind == SmtNode::Kind::Cmp) {
      int x = c.operands[0], k = c.operands[1];
      SmtNode::Predicate p = c.predicate;
      if (known(x)) {
        std::swap(x, k);
        p = mirrored(p);
      }
      const std::optional<int64_t> coef = coefficient(x, variable, v);
      if (known(k) && coef && *coef > 0)
        bound(d, p, *coef, *known(k));
      return;
    }
    if (c.kind != SmtNode::Kind::Eq || c.operands.size() != 2)
      return;
    int x = c.operands[0], k = c.operands[1];
    if (known(x))
      std::swap(x, k);
    if (!known(k))
      return;
    // x == k
    if (const std::optional<int64_t> coef = coefficient(x, variable, v)) {
      d.restrict(*known(k) % *coef == 0
                     ? std::vector<int64_t>{*known(k) / *coef}
                     : std::vector<int64_t>{});
      return;
    }
    // e % (c * x) == 0: c * x divides e.
    const SmtNode &mod = node(x);
    if (mod.kind != SmtNode::Kind::Mod || *known(k) != 0)
      return;
    const std::optional<int64_t> dividend = known(mod.operands[0]);
    const std::optional<int64_t> coef =
        coefficient(mod.operands[1], variable, v);
    if (!dividend || !coef || *dividend == 0)
      return;
    std::vector<int64_t> set;
    for (int64_t divisor : divisorsOf(*dividend))
      if (divisor % *coef == 0) {
        set.push_back(divisor / *coef);
        set.push_back(-divisor / *coef);
      }
    d.restrict(std::move(set));
  }

  // The values to try for `variable`; none when the asserts leave it open.
  std::optional<std::vector<int64_t>> candidates(int variable,
                                                 const Values &v) const {
    Domain d;
    const Mask open = ~assigned;
    for (const SmtAssert &a : program.asserts)
      if ((mask(a.condition) & open) == (Mask{1} << variable))
        learn(d, a.condition, variable, v);
    if (d.values) {
      std::vector<int64_t> in;
      for (int64_t x : *d.values)
        if (x >= d.low && x <= d.high)
          in.push_back(x);
      return in;
    }
    if (d.low == kNoLow || d.high == kNoHigh ||
        (d.high >= d.low && d.high - d.low >= options.widestRange))
      return std::nullopt;
    std::vector<int64_t> range;
    for (int64_t x = d.low; x <= d.high; ++x)
      range.push_back(x);
    return range;
  }

  bool anyAssertFails(const Values &v) const {
    for (const SmtAssert &a : program.asserts)
      if (const std::optional<int64_t> holds =
              v[static_cast<size_t>(a.condition)];
          holds && !*holds)
        return true;
    return false;
  }

  // Returns true when the branch found an assignment (what the existential
  // part of the search needs to stop).
  bool search() {
    if (!failure.empty() || space.truncated)
      return false;
    if (++space.visited > options.maxVisited) {
      space.truncated = true;
      return false;
    }
    const Values v = evaluateSmt(program, assignment);
    if (anyAssertFails(v))
      return false;
    const Mask all = program.variables.size() == 64
                         ? ~Mask{0}
                         : (Mask{1} << program.variables.size()) - 1;
    if ((assigned & knobs) == knobs &&
        ((assigned & all) == all || freeSettled()))
      return record();

    // The open variable with the fewest candidates; knobs before free ones,
    // so one knob assignment is not found once per value of a free one.
    int best = -1;
    std::vector<int64_t> bestValues;
    for (int pass = 0; pass < 2 && best < 0; ++pass)
      for (size_t u = 0; u < program.variables.size(); ++u) {
        const Mask bit = Mask{1} << u;
        if ((assigned & bit) || ((knobs & bit) != 0) != (pass == 0))
          continue;
        auto values = candidates(static_cast<int>(u), v);
        if (values && (best < 0 || values->size() < bestValues.size())) {
          best = static_cast<int>(u);
          bestValues = std::move(*values);
        }
      }
    if (best < 0) {
      std::string open;
      for (size_t u = 0; u < program.variables.size(); ++u)
        if (!(assigned & (Mask{1} << u)))
          open += (open.empty() ? "" : ", ") + program.variables[u].name;
      failure = "IREE's constraints leave " + open +
                " without a finite set of values once the others are chosen; "
                "hold them at a value (vary fewer fields)";
      return false;
    }
    const bool existential = (assigned & knobs) == knobs;
    bool found = false;
    for (int64_t value : bestValues) {
      assignment[static_cast<size_t>(best)] = value;
      assigned |= Mask{1} << best;
      found = search() || found;
      assigned &= ~(Mask{1} << best);
      assignment[static_cast<size_t>(best)].reset();
      if ((found && existential) || !failure.empty() || space.truncated)
        break;
    }
    return found;
  }

  // Every knob is set and no assert depends on a free variable still open:
  // whatever values those take, nothing more can fail.
  bool freeSettled() const {
    const Mask open = ~assigned;
    for (const SmtAssert &a : program.asserts)
      if (mask(a.condition) & open)
        return false;
    return true;
  }

  bool record() {
    std::vector<int64_t> point;
    for (size_t u = 0; u < program.variables.size(); ++u)
      if (!program.variables[u].free)
        point.push_back(assignment[u].value_or(0));
    if (seen.insert(point).second) {
      space.points.push_back(std::move(point));
      if (space.points.size() >= options.limit)
        space.truncated = true;
    }
    return true;
  }

  const SmtProgram &program;
  const SmtSpaceOptions &options;
  std::vector<Mask> masks;
  Mask knobs = 0, assigned = 0;
  Values assignment;
  std::set<std::vector<int64_t>> seen;
  SmtSpace space;
  std::string failure;
};

} // namespace

Result<SmtSpace> enumerateSmtSpace(const SmtProgram &program,
                                   const SmtSpaceOptions &options) {
  return Search(program, options).run();
}

} // namespace tilescope::config
