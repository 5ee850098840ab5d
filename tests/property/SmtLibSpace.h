// The space of IREE's constraints as an SMT solver lists it: IREE's own
// SMT-LIB translation of a constraints op (iree::constraintsAsSmtLib), read
// by Z3, enumerated the way IREE's tuner (amdsharktuner) enumerates its
// models: a model, then a clause forbidding its knob values, until unsat.
// The independent reference property_constraint_space checks Tilescope's
// listing against, and bench_constraints times it against.
#pragma once

#include "core/service/IreeConstraints.h"

#include <z3.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tilescope::property {

// The constraints op alone in a function, its dims the constants IREE
// folded them to: what IREE translates to SMT-LIB.
inline std::string constraintsModule(const service::ConstraintSet &set) {
  std::string text = "func.func @space() {\n";
  std::string dims;
  for (size_t d = 0; d < set.dims.size(); ++d) {
    text += "  %d" + std::to_string(d) + " = arith.constant " +
            std::to_string(set.dims[d].value_or(0)) + " : index\n";
    dims += (d ? ", %d" : "%d") + std::to_string(d);
  }
  text += "  iree_codegen.smt.constraints target = <set = 0>, pipeline = "
          "#iree_gpu.pipeline<" +
          set.pipeline + ">, knobs = " + set.knobs + " dims(" + dims + ") {" +
          set.body + "}\n  return\n}\n";
  return text;
}

struct Z3Space {
  std::set<std::vector<int64_t>> points;
  bool truncated = false;
  std::string error;
};

// Every assignment of `knobs` Z3 finds for the SMT-LIB text with `held`
// knobs fixed: a model, then a clause forbidding its knob values, again.
inline Z3Space z3Space(const std::string &smtlib,
                       const std::vector<std::string> &knobs,
                       const std::map<std::string, int64_t> &held,
                       size_t limit) {
  Z3Space result;
  Z3_config config = Z3_mk_config();
  Z3_context ctx = Z3_mk_context(config);
  Z3_del_config(config);
  Z3_set_error_handler(ctx, nullptr);
  Z3_ast_vector asserts = Z3_parse_smtlib2_string(
      ctx, smtlib.c_str(), 0, nullptr, nullptr, 0, nullptr, nullptr);
  if (Z3_get_error_code(ctx) != Z3_OK) {
    result.error = std::string("Z3 cannot read IREE's SMT-LIB: ") +
                   Z3_get_error_msg(ctx, Z3_get_error_code(ctx));
    Z3_del_context(ctx);
    return result;
  }
  Z3_ast_vector_inc_ref(ctx, asserts);
  Z3_solver solver = Z3_mk_solver(ctx);
  Z3_solver_inc_ref(ctx, solver);
  for (unsigned i = 0; i < Z3_ast_vector_size(ctx, asserts); ++i)
    Z3_solver_assert(ctx, solver, Z3_ast_vector_get(ctx, asserts, i));
  const Z3_sort integer = Z3_mk_int_sort(ctx);
  std::vector<Z3_ast> constants;
  for (const std::string &knob : knobs) {
    constants.push_back(
        Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, knob.c_str()), integer));
    if (auto it = held.find(knob); it != held.end())
      Z3_solver_assert(ctx, solver,
                       Z3_mk_eq(ctx, constants.back(),
                                Z3_mk_int64(ctx, it->second, integer)));
  }
  while (Z3_solver_check(ctx, solver) == Z3_L_TRUE) {
    if (result.points.size() >= limit) {
      result.truncated = true;
      break;
    }
    Z3_model model = Z3_solver_get_model(ctx, solver);
    Z3_model_inc_ref(ctx, model);
    std::vector<int64_t> point;
    std::vector<Z3_ast> differs;
    for (Z3_ast constant : constants) {
      Z3_ast value = nullptr;
      int64_t number = 0;
      Z3_model_eval(ctx, model, constant, true, &value);
      Z3_get_numeral_int64(ctx, value, &number);
      point.push_back(number);
      differs.push_back(Z3_mk_not(ctx, Z3_mk_eq(ctx, constant, value)));
    }
    Z3_model_dec_ref(ctx, model);
    result.points.insert(point);
    Z3_solver_assert(
        ctx, solver,
        Z3_mk_or(ctx, static_cast<unsigned>(differs.size()), differs.data()));
  }
  Z3_solver_dec_ref(ctx, solver);
  Z3_ast_vector_dec_ref(ctx, asserts);
  Z3_del_context(ctx);
  return result;
}

} // namespace tilescope::property
