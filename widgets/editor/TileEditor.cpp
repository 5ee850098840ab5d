#include "widgets/editor/TileEditor.h"

#include "core/config/configs/FieldText.h"
#include "core/config/syntax/Attribute.h"
#include "core/layout/TileMeaning.h"

#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// The box's text as integers, or why not.
Result<std::vector<int64_t>> integersOf(const QString &text) {
  return config::integerListOf(text.toStdString());
}

// What the key means, in the config model's words.
QString keyMeaning(const QString &key) {
  for (const config::LoweringConfigKey &known : config::loweringConfigKeys())
    if (key == known.name)
      return known.meaning;
  return {};
}

} // namespace

TileEditor::TileEditor(const QString &tileField, const QString &text,
                       const config::IterationSpace &loops,
                       const config::LoweringConfig &rest,
                       const QString &compiledBy, QWidget *parent)
    : FieldDialog(tileField, "tileEditor", parent), space(loops), config(rest),
      pipeline(compiledBy) {
  setMinimumWidth(560);
  const size_t rank = space.rank();
  QString about =
      field + ": " + keyMeaning(field) +
      (pipeline.isEmpty() ? QString() : ", as " + pipeline + " reads it") + ".";
  if (auto values = integersOf(text); values && values->size() == rank) {
    current = *values;
  } else {
    current.assign(rank, 0);
    if (values)
      std::copy_n(values->begin(), std::min(values->size(), rank),
                  current.begin());
    about +=
        "\nThe box holds " +
        (values
             ? QString("%1 entries for %2 loops").arg(values->size()).arg(rank)
             : "no list (" + qs(values.error()) + ")") +
        ": starting from what fits, the rest 0.";
  }
  note->setText(about);

  auto *grid = new QGridLayout;
  grid->setColumnStretch(2, 1);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t bound = space.bounds[d];
    auto *name =
        new QLabel(QString("d%1 · %2%3")
                       .arg(d)
                       .arg(bound < 0 ? QString("?") : QString::number(bound))
                       .arg(space.isReduction(d) ? " · reduction" : ""));
    auto *box = new QSpinBox;
    box->setObjectName(QString("tile%1").arg(d));
    box->setRange(0, std::numeric_limits<int>::max());
    box->setValue(static_cast<int>(
        std::clamp<int64_t>(current[d], 0, std::numeric_limits<int>::max())));
    connect(box, &QSpinBox::valueChanged, this, [this, d](int value) {
      if (!building)
        setValue(d, value);
    });
    auto *meaning = new QLabel;
    meaning->setObjectName(QString("tileMeaning%1").arg(d));
    meaning->setWordWrap(true);
    grid->addWidget(name, static_cast<int>(d), 0);
    grid->addWidget(box, static_cast<int>(d), 1);
    grid->addWidget(meaning, static_cast<int>(d), 2);
    boxes.push_back(box);
    meaningLabels.push_back(meaning);
  }
  finish(grid);
  refresh();
}

QString TileEditor::text() const {
  return qs(config::printAttribute(config::Attribute::integerArray(current)));
}

QStringList TileEditor::meanings() const {
  QStringList lines;
  for (const QLabel *label : meaningLabels)
    lines << label->text();
  return lines;
}

void TileEditor::setValue(size_t dim, int64_t value) {
  if (dim >= current.size())
    return;
  current[dim] = value;
  if (dim < boxes.size() && boxes[dim]->value() != value) {
    building = true;
    boxes[dim]->setValue(static_cast<int>(value));
    building = false;
  }
  refresh();
  emit valueChanged(text());
}

void TileEditor::refresh() {
  auto meaning = layout::describeTileLevel(field.toStdString(), current, config,
                                           space, pipeline.toStdString());
  QString line = text();
  if (!meaning) {
    for (QLabel *label : meaningLabels)
      label->clear();
    result->setText(line + "\n" + qs(meaning.error()));
    return;
  }
  int64_t pieces = 1;
  bool allKnown = true;
  for (size_t d = 0; d < meaning->entries.size(); ++d) {
    const layout::TileEntryMeaning &entry = meaning->entries[d];
    // The loop is named on the left already.
    const std::string &full = entry.text;
    const size_t colon = full.find("): ");
    meaningLabels[d]->setText(
        qs(colon == std::string::npos ? full : full.substr(colon + 3)));
    if (entry.value > 0) {
      allKnown = allKnown && entry.count > 0;
      pieces *= std::max<int64_t>(entry.count, 1);
    }
  }
  if (allKnown && field == "workgroup")
    line += QString("\n%1 workgroups in all").arg(pieces);
  else if (allKnown && (field == "thread" || field == "subgroup"))
    line +=
        QString("\n%1 %2 per workgroup").arg(pieces).arg(qs(meaning->pieces));
  else if (allKnown && field == "reduction")
    line += QString("\n%1 reduction steps").arg(pieces);
  result->setText(line);
}

} // namespace tilescope::widgets
