// Seeded random edits of the two examples the agreement tests share (the
// sm_90 reduction's VectorDistribute config, the gfx942 matmul's
// TileAndFuse one): one or two fields, FIELD=VALUE as set-config takes
// them. The CLI's verdicts and plan (e2e_cli_one_verdict) and the window
// against the CLI (widgets_one_answer) are fed the same ones.
#pragma once

#include <QRandomGenerator>
#include <QString>

#include <functional>
#include <initializer_list>
#include <utility>
#include <vector>

namespace tilescope::test {

using Edit = std::vector<std::pair<QString, QString>>;

inline QString pick(QRandomGenerator &random,
                    std::initializer_list<int> values) {
  const std::vector<int> v(values);
  return QString::number(v[random.bounded(static_cast<int>(v.size()))]);
}

using Field = std::function<std::pair<QString, QString>()>;

// One of `fields`, or two different ones.
inline Edit oneOrTwo(QRandomGenerator &random,
                     const std::vector<Field> &fields) {
  const int count = static_cast<int>(fields.size());
  const int first = random.bounded(count);
  Edit edit{fields[static_cast<size_t>(first)]()};
  if (random.bounded(2)) {
    const int second = (first + 1 + random.bounded(count - 1)) % count;
    edit.push_back(fields[static_cast<size_t>(second)]());
  }
  return edit;
}

// One or two fields of the reduction's VectorDistribute config.
inline Edit reductionEdit(QRandomGenerator &random) {
  const std::vector<Field> fields = {
      [&] {
        return std::pair{QString("lane_basis"),
                         "[[1, " + pick(random, {8, 16, 32, 64}) +
                             "], [0, 1]]"};
      },
      [&] {
        return std::pair{QString("subgroup_basis"),
                         "[[1, " + pick(random, {1, 2, 4, 8}) + "], [0, 1]]"};
      },
      [&] {
        return std::pair{QString("partial_reduction"),
                         "[0, " + pick(random, {64, 128, 256, 512, 1024}) +
                             "]"};
      },
      [&] {
        return std::pair{QString("thread"),
                         "[0, " + pick(random, {1, 2, 4, 8, 16}) + "]"};
      },
      [&] {
        return std::pair{QString("workgroup_size"),
                         "[" + pick(random, {32, 64, 128, 256}) + ", 1, 1]"};
      },
  };
  return oneOrTwo(random, fields);
}

// One or two fields of the matmul's TileAndFuse config.
inline Edit matmulEdit(QRandomGenerator &random) {
  const std::vector<Field> fields = {
      [&] {
        return std::pair{QString("workgroup"),
                         "[" + pick(random, {16, 32, 64, 128, 256}) + ", " +
                             pick(random, {16, 32, 64, 128, 256}) + ", 0]"};
      },
      [&] {
        return std::pair{QString("reduction"),
                         "[0, 0, " + pick(random, {1, 2, 4, 8, 16}) + "]"};
      },
      [&] {
        return std::pair{QString("subgroup"),
                         "[" + pick(random, {1, 2, 4}) + ", " +
                             pick(random, {1, 2, 4, 8}) + ", 0]"};
      },
      [&] {
        return std::pair{QString("workgroup_size"),
                         "[" + pick(random, {64, 128, 256, 512}) + ", 1, 1]"};
      },
  };
  return oneOrTwo(random, fields);
}

} // namespace tilescope::test
