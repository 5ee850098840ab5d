#include "core/config/smt/SmtProgram.h"

#include "core/util/Text.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>

namespace tilescope::config {
namespace {

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.' || c == '-';
}

// Reads one line of the body: its tokens in order.
class LineReader {
public:
  explicit LineReader(std::string_view text) : rest(trimmed(text)) {}

  bool done() const { return rest.empty(); }
  std::string_view remaining() const { return rest; }

  bool eat(std::string_view token) {
    skipSpace();
    if (rest.substr(0, token.size()) != token)
      return false;
    rest.remove_prefix(token.size());
    return true;
  }

  // `%name`, returned without the `%`.
  std::optional<std::string> value() {
    skipSpace();
    if (rest.empty() || rest.front() != '%')
      return std::nullopt;
    size_t end = 1;
    while (end < rest.size() && isNameChar(rest[end]))
      ++end;
    std::string name(rest.substr(1, end - 1));
    rest.remove_prefix(end);
    return name;
  }

  std::optional<std::string> word() {
    skipSpace();
    size_t end = 0;
    while (end < rest.size() && isNameChar(rest[end]))
      ++end;
    if (end == 0)
      return std::nullopt;
    std::string w(rest.substr(0, end));
    rest.remove_prefix(end);
    return w;
  }

  std::optional<int64_t> integer() {
    auto w = word();
    return w ? parseInt64(*w) : std::nullopt;
  }

  // An MLIR string literal, escapes resolved.
  std::optional<std::string> string() {
    skipSpace();
    if (rest.empty() || rest.front() != '"')
      return std::nullopt;
    std::string out;
    size_t i = 1;
    for (; i < rest.size() && rest[i] != '"'; ++i) {
      if (rest[i] != '\\') {
        out += rest[i];
        continue;
      }
      if (++i >= rest.size())
        return std::nullopt;
      const char c = rest[i];
      if (c == 'n')
        out += '\n';
      else if (c == 't')
        out += '\t';
      else if (c == '"' || c == '\\')
        out += c;
      else if (std::isxdigit(static_cast<unsigned char>(c)) &&
               i + 1 < rest.size()) {
        out += static_cast<char>(
            std::stoi(std::string(rest.substr(i, 2)), nullptr, 16));
        ++i;
      } else
        return std::nullopt;
    }
    if (i >= rest.size())
      return std::nullopt;
    rest.remove_prefix(i + 1);
    return out;
  }

  // `[1, 2, 3]`
  std::optional<std::vector<int64_t>> integerList() {
    if (!eat("["))
      return std::nullopt;
    std::vector<int64_t> list;
    if (eat("]"))
      return list;
    do {
      auto n = integer();
      if (!n)
        return std::nullopt;
      list.push_back(*n);
    } while (eat(","));
    if (!eat("]"))
      return std::nullopt;
    return list;
  }

private:
  void skipSpace() { rest = trimmed(rest); }
  std::string_view rest;
};

struct OpSpec {
  std::string_view name;
  SmtNode::Kind kind;
  bool isBool;
  int arity; // -1: one or more
};

constexpr OpSpec kOps[] = {
    {"smt.int.add", SmtNode::Kind::Add, false, -1},
    {"smt.int.mul", SmtNode::Kind::Mul, false, -1},
    {"smt.int.sub", SmtNode::Kind::Sub, false, 2},
    {"smt.int.div", SmtNode::Kind::Div, false, 2},
    {"smt.int.mod", SmtNode::Kind::Mod, false, 2},
    {"smt.eq", SmtNode::Kind::Eq, true, -1},
    {"smt.and", SmtNode::Kind::And, true, -1},
    {"smt.or", SmtNode::Kind::Or, true, -1},
    {"smt.not", SmtNode::Kind::Not, true, 1},
};

class Parser {
public:
  Parser(const std::vector<std::optional<int64_t>> &dims) {
    program.dims = dims;
  }

  Result<SmtProgram> parse(const std::string &body) {
    size_t from = 0;
    int line = 0;
    while (from <= body.size()) {
      size_t end = body.find('\n', from);
      if (end == std::string::npos)
        end = body.size();
      ++line;
      std::string_view text =
          trimmed(std::string_view(body).substr(from, end - from));
      from = end + 1;
      if (text.empty())
        continue;
      if (auto failed = parseLine(text); !failed.empty())
        return Error{"IREE's constraints, line " + std::to_string(line) + ": " +
                     failed + " (in \"" + std::string(text.substr(0, 120)) +
                     "\")"};
      if (!program.asserts.empty() && program.asserts.back().line == 0)
        program.asserts.back().line = line;
    }
    return std::move(program);
  }

private:
  std::string parseLine(std::string_view text) {
    if (text.front() == '^')
      return blockArguments(text);
    LineReader in(text);
    if (in.eat("iree_codegen.smt.assert"))
      return assertion(in);
    auto result = in.value();
    if (!result || !in.eat("="))
      return "expected `%name = op` or an assert";
    auto op = in.word();
    if (!op)
      return "expected an op name";
    if (byName.count(*result))
      return "%" + *result + " is defined twice";
    SmtNode node;
    node.name = *result;
    if (auto failed = opBody(*op, in, node); !failed.empty())
      return failed;
    byName[*result] = static_cast<int>(program.nodes.size());
    program.nodes.push_back(std::move(node));
    return {};
  }

  std::string blockArguments(std::string_view text) {
    const size_t open = text.find('(');
    const size_t close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos)
      return "expected the block's arguments";
    LineReader args(text.substr(open + 1, close - open - 1));
    int index = 0;
    while (!args.done()) {
      auto name = args.value();
      if (!name || !args.eat(":") || !args.eat("!smt.int"))
        return "expected `%name: !smt.int` block arguments";
      SmtNode node;
      node.kind = SmtNode::Kind::Dim;
      node.index = index++;
      node.name = *name;
      byName[*name] = static_cast<int>(program.nodes.size());
      program.nodes.push_back(std::move(node));
      if (!args.eat(","))
        break;
    }
    if (static_cast<size_t>(index) > program.dims.size())
      program.dims.resize(static_cast<size_t>(index));
    return {};
  }

  // `%a, %b, ...` operands that name nodes defined above.
  std::string operands(LineReader &in, std::vector<int> &out) {
    do {
      auto name = in.value();
      if (!name)
        return out.empty() ? "expected an operand"
                           : "expected an operand after ','";
      auto it = byName.find(*name);
      if (it == byName.end())
        return "%" + *name + " is not defined above";
      out.push_back(it->second);
    } while (in.eat(","));
    return {};
  }

  bool isBool(int node) const {
    return program.nodes[static_cast<size_t>(node)].isBool;
  }

  int variable(const std::string &name, bool free) {
    for (size_t v = 0; v < program.variables.size(); ++v)
      if (program.variables[v].name == name &&
          program.variables[v].free == free)
        return static_cast<int>(v);
    program.variables.push_back({name, free});
    return static_cast<int>(program.variables.size() - 1);
  }

  std::string opBody(const std::string &op, LineReader &in, SmtNode &node) {
    if (op == "smt.int.constant") {
      auto n = in.integer();
      if (!n)
        return "expected an integer";
      node.constant = *n;
      return {};
    }
    if (op == "smt.bool.constant") {
      auto w = in.word();
      if (!w || (*w != "true" && *w != "false"))
        return "expected true or false";
      node.isBool = true;
      node.constant = *w == "true";
      return {};
    }
    if (op == "iree_codegen.smt.knob" || op == "smt.declare_fun") {
      const bool free = op == "smt.declare_fun";
      auto name = in.string();
      if (!name && !free)
        return "expected the knob's name";
      if (!in.eat(":") || !in.eat("!smt.int"))
        return op + " of a type other than !smt.int";
      node.kind = free ? SmtNode::Kind::Free : SmtNode::Kind::Knob;
      node.index = variable(name ? *name : node.name, free);
      return {};
    }
    if (op == "iree_codegen.smt.lookup") {
      node.kind = SmtNode::Kind::Lookup;
      if (auto failed = operands(in, node.operands); !failed.empty())
        return failed;
      auto keys = in.integerList();
      if (!keys || !in.eat("->"))
        return "expected `[keys] -> [values]`";
      auto values = in.integerList();
      if (!values || values->size() != keys->size() || keys->empty())
        return "the lookup's keys and values differ in number";
      node.keys = std::move(*keys);
      node.values = std::move(*values);
      return {};
    }
    if (op == "smt.int.cmp") {
      static const std::pair<const char *, SmtNode::Predicate> kPredicates[] = {
          {"lt", SmtNode::Predicate::Lt},
          {"le", SmtNode::Predicate::Le},
          {"gt", SmtNode::Predicate::Gt},
          {"ge", SmtNode::Predicate::Ge}};
      auto predicate = in.word();
      const auto *found = std::find_if(
          std::begin(kPredicates), std::end(kPredicates),
          [&](const auto &p) { return predicate && *predicate == p.first; });
      if (found == std::end(kPredicates))
        return "unknown comparison '" + predicate.value_or("") + "'";
      node.kind = SmtNode::Kind::Cmp;
      node.isBool = true;
      node.predicate = found->second;
      if (auto failed = operands(in, node.operands); !failed.empty())
        return failed;
      return node.operands.size() == 2 ? "" : "smt.int.cmp takes two operands";
    }
    if (op == "smt.ite") {
      node.kind = SmtNode::Kind::Ite;
      if (auto failed = operands(in, node.operands); !failed.empty())
        return failed;
      if (node.operands.size() != 3 || !isBool(node.operands[0]))
        return "smt.ite takes a condition and two values";
      node.isBool = isBool(node.operands[1]);
      return {};
    }
    for (const OpSpec &spec : kOps)
      if (op == spec.name) {
        node.kind = spec.kind;
        node.isBool = spec.isBool;
        if (auto failed = operands(in, node.operands); !failed.empty())
          return failed;
        if (spec.arity > 0 &&
            node.operands.size() != static_cast<size_t>(spec.arity))
          return op + " takes " + std::to_string(spec.arity) + " operand(s)";
        return {};
      }
    return "'" + op +
           "' is not an op IREE's constraint evaluator handles "
           "(VerifyPipelineConstraints.cpp)";
  }

  std::string assertion(LineReader &in) {
    SmtAssert a;
    auto condition = in.value();
    const bool comma = in.eat(",");
    auto message = in.string();
    if (!condition || !comma || !message)
      return "expected `iree_codegen.smt.assert %cond, \"message\"`";
    auto defined = byName.find(*condition);
    if (defined == byName.end())
      return "%" + *condition + " is not defined above";
    a.condition = defined->second;
    if (!isBool(a.condition))
      return "the assert's condition is not a bool";
    a.message = std::move(*message);
    if (in.eat(","))
      if (auto failed = operands(in, a.arguments); !failed.empty())
        return failed;
    program.asserts.push_back(std::move(a));
    return {};
  }

  SmtProgram program;
  std::unordered_map<std::string, int> byName;
};

// int64 arithmetic that wraps instead of being undefined, as the compiled
// evaluator behaves in practice.
int64_t wrap(uint64_t value) { return static_cast<int64_t>(value); }

} // namespace

int SmtProgram::variable(const std::string &name) const {
  for (size_t v = 0; v < variables.size(); ++v)
    if (!variables[v].free && variables[v].name == name)
      return static_cast<int>(v);
  return -1;
}

Result<SmtProgram>
parseSmtProgram(const std::string &body,
                const std::vector<std::optional<int64_t>> &dims) {
  return Parser(dims).parse(body);
}

std::vector<std::optional<int64_t>>
evaluateSmt(const SmtProgram &program,
            const std::vector<std::optional<int64_t>> &assignment) {
  std::vector<std::optional<int64_t>> v(program.nodes.size());
  auto at = [&](int i) { return v[static_cast<size_t>(i)]; };
  for (size_t n = 0; n < program.nodes.size(); ++n) {
    const SmtNode &node = program.nodes[n];
    const std::vector<int> &ops = node.operands;
    std::optional<int64_t> &out = v[n];
    switch (node.kind) {
    case SmtNode::Kind::Dim:
      out = static_cast<size_t>(node.index) < program.dims.size()
                ? program.dims[static_cast<size_t>(node.index)]
                : std::nullopt;
      break;
    case SmtNode::Kind::Constant:
      out = node.constant;
      break;
    case SmtNode::Kind::Knob:
    case SmtNode::Kind::Free:
      out = static_cast<size_t>(node.index) < assignment.size()
                ? assignment[static_cast<size_t>(node.index)]
                : std::nullopt;
      break;
    case SmtNode::Kind::Add:
    case SmtNode::Kind::Mul: {
      std::optional<int64_t> acc = at(ops.front());
      for (size_t i = 1; acc && i < ops.size(); ++i) {
        const std::optional<int64_t> x = at(ops[i]);
        if (!x)
          acc.reset();
        else if (node.kind == SmtNode::Kind::Add)
          acc = wrap(static_cast<uint64_t>(*acc) + static_cast<uint64_t>(*x));
        else
          acc = wrap(static_cast<uint64_t>(*acc) * static_cast<uint64_t>(*x));
      }
      out = acc;
      break;
    }
    case SmtNode::Kind::Sub:
    case SmtNode::Kind::Div:
    case SmtNode::Kind::Mod: {
      const std::optional<int64_t> l = at(ops[0]), r = at(ops[1]);
      if (!l || !r)
        break;
      if (node.kind == SmtNode::Kind::Sub)
        out = wrap(static_cast<uint64_t>(*l) - static_cast<uint64_t>(*r));
      else if (*r == 0 || (*r == -1 && *l == INT64_MIN))
        out.reset();
      else
        out = node.kind == SmtNode::Kind::Div ? *l / *r : *l % *r;
      break;
    }
    case SmtNode::Kind::Eq: {
      // IREE compares int operands only; bool ones read as unknown.
      bool known = true;
      for (int o : ops)
        known = known && !program.nodes[static_cast<size_t>(o)].isBool && at(o);
      if (known)
        out = std::all_of(ops.begin(), ops.end(),
                          [&](int o) { return *at(o) == *at(ops.front()); });
      break;
    }
    case SmtNode::Kind::Cmp: {
      const std::optional<int64_t> l = at(ops[0]), r = at(ops[1]);
      if (!l || !r)
        break;
      switch (node.predicate) {
      case SmtNode::Predicate::Lt:
        out = *l < *r;
        break;
      case SmtNode::Predicate::Le:
        out = *l <= *r;
        break;
      case SmtNode::Predicate::Gt:
        out = *l > *r;
        break;
      case SmtNode::Predicate::Ge:
        out = *l >= *r;
        break;
      }
      break;
    }
    case SmtNode::Kind::And:
    case SmtNode::Kind::Or: {
      // A known deciding input decides; otherwise any unknown is unknown.
      const int64_t deciding = node.kind == SmtNode::Kind::Or ? 1 : 0;
      bool unknown = false;
      for (int o : ops) {
        if (!at(o))
          unknown = true;
        else if (*at(o) == deciding) {
          out = deciding;
          break;
        }
      }
      if (!out && !unknown)
        out = 1 - deciding;
      break;
    }
    case SmtNode::Kind::Not:
      if (at(ops[0]))
        out = *at(ops[0]) ? 0 : 1;
      break;
    case SmtNode::Kind::Ite:
      if (at(ops[0]))
        out = at(*at(ops[0]) ? ops[1] : ops[2]);
      break;
    case SmtNode::Kind::Lookup:
      if (const std::optional<int64_t> key = at(ops[0])) {
        const auto it = std::find(node.keys.begin(), node.keys.end(), *key);
        if (it != node.keys.end())
          out = node.values[static_cast<size_t>(it - node.keys.begin())];
      }
      break;
    }
  }
  return v;
}

std::vector<SmtViolation>
violatedAsserts(const SmtProgram &program,
                const std::vector<std::optional<int64_t>> &assignment) {
  const std::vector<std::optional<int64_t>> v =
      evaluateSmt(program, assignment);
  std::vector<SmtViolation> violations;
  for (size_t a = 0; a < program.asserts.size(); ++a) {
    const SmtAssert &assertion = program.asserts[a];
    const std::optional<int64_t> holds =
        v[static_cast<size_t>(assertion.condition)];
    if (!holds || *holds)
      continue;
    std::string message = assertion.message;
    for (int argument : assertion.arguments) {
      const std::optional<int64_t> value = v[static_cast<size_t>(argument)];
      if (size_t at = message.find("{}"); at != std::string::npos)
        message.replace(at, 2, value ? std::to_string(*value) : "?");
    }
    violations.push_back({a, std::move(message)});
  }
  return violations;
}

std::vector<SmtViolation>
violatedAsserts(const SmtProgram &program,
                const std::map<std::string, int64_t> &knobs) {
  std::vector<std::optional<int64_t>> assignment(program.variables.size());
  for (const auto &[name, value] : knobs)
    if (const int v = program.variable(name); v >= 0)
      assignment[static_cast<size_t>(v)] = value;
  return violatedAsserts(program, assignment);
}

} // namespace tilescope::config
