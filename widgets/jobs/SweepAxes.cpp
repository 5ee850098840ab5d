#include "widgets/jobs/SweepAxes.h"

#include <QRegularExpression>

#include <optional>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &s) { return QString::fromStdString(s); }

// "[64, 128, 0]" as its entries; nullopt for anything else.
std::optional<QStringList> listEntries(const QString &value) {
  const QString text = value.trimmed();
  if (!text.startsWith('[') || !text.endsWith(']') || text.size() < 3)
    return std::nullopt;
  QStringList entries = text.mid(1, text.size() - 2).split(',');
  for (QString &entry : entries) {
    entry = entry.trimmed();
    bool ok = false;
    entry.toLongLong(&ok);
    if (!ok)
      return std::nullopt;
  }
  return entries;
}

QString fieldValue(const sweep::SweepCandidate &candidate, const QString &field,
                   const BaseValues &base) {
  for (const auto &[name, value] : candidate.settings)
    if (qs(name) == field)
      return qs(value);
  if (auto it = base.find(field.toStdString()); it != base.end())
    return qs(it->second);
  return {};
}

} // namespace

QStringList
plotAxes(const std::vector<const sweep::SweepCandidate *> &candidates,
         const BaseValues &base) {
  QStringList fields;
  for (const sweep::SweepCandidate *c : candidates)
    for (const auto &setting : c->settings)
      if (!fields.contains(qs(setting.first)))
        fields << qs(setting.first);
  QStringList entryAxes, wholeAxes;
  for (const QString &field : fields) {
    QStringList values;
    for (const sweep::SweepCandidate *c : candidates)
      values << fieldValue(*c, field, base);
    values.removeDuplicates();
    if (values.size() < 2)
      continue; // the same everywhere: nothing to plot against
    // Entries that differ, where every value is a list of one length.
    std::vector<QStringList> lists;
    for (const QString &value : values)
      if (auto entries = listEntries(value))
        lists.push_back(*entries);
    int differing = 0;
    if (lists.size() == size_t(values.size()))
      for (qsizetype i = 0; i < lists.front().size(); ++i) {
        bool differs = false;
        for (const QStringList &list : lists)
          differs = differs || list.size() != lists.front().size() ||
                    list[i] != lists.front()[i];
        if (differs) {
          entryAxes << field + "[" + QString::number(i) + "]";
          ++differing;
        }
      }
    // A list of which one entry varies is that entry; otherwise the whole
    // value is an axis too.
    if (differing != 1)
      wholeAxes << field;
  }
  return entryAxes + wholeAxes;
}

QString plotValue(const sweep::SweepCandidate &candidate, const QString &axis,
                  const BaseValues &base) {
  static const QRegularExpression entry("^(.+)\\[(\\d+)\\]$");
  // A setting named as the axis ("workgroup[1]" of a --vary sweep) first.
  QString value = fieldValue(candidate, axis, base);
  if (!value.isEmpty())
    return value;
  const auto match = entry.match(axis);
  if (!match.hasMatch())
    return {};
  const auto entries =
      listEntries(fieldValue(candidate, match.captured(1), base));
  const qsizetype index = match.captured(2).toLongLong();
  if (!entries || index >= entries->size())
    return {};
  return (*entries)[index];
}

} // namespace tilescope::widgets
