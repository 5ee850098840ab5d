// What a sweep's plot can be drawn against: each field the candidates set,
// and, for a tile list whose entries differ between candidates, each such
// entry alone ("workgroup[1]"), so that a sweep of whole lists (IREE's
// constraint space) plots against numbers. A candidate that leaves a field
// alone has the op's own value there.
#pragma once

#include "core/sweep/Sweep.h"

#include <QString>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

namespace tilescope::widgets {

// The op's own values, by field ("workgroup" -> "[64, 128, 0]").
using BaseValues = std::map<std::string, std::string>;

// Entry axes first (they plot as numbers), then whole fields whose values
// differ; fields all candidates share are left out.
QStringList
plotAxes(const std::vector<const sweep::SweepCandidate *> &candidates,
         const BaseValues &base);

// The candidate's value on `axis` ("" where it has none).
QString plotValue(const sweep::SweepCandidate &candidate, const QString &axis,
                  const BaseValues &base);

} // namespace tilescope::widgets
