#include "widgets/editor/BasisEditor.h"

#include "core/config/configs/FieldText.h"
#include "core/config/syntax/Attribute.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {
namespace {

constexpr int kMaximumCount = 1 << 16;
constexpr size_t kMaximumDigits = 8;

// The box's text as a basis, or the reason it is none.
Result<config::Basis> basisOf(const QString &text, const QString &field) {
  return config::basisOf(text.toStdString(), field.toStdString());
}

} // namespace

BasisEditor::BasisEditor(const QString &basisField, const QString &text,
                         const std::optional<config::IterationSpace> &loops,
                         std::optional<int64_t> ids, QWidget *parent)
    : FieldDialog(basisField, "basisEditor", parent), space(loops),
      threads(ids) {
  setMinimumWidth(380);

  if (auto parsed = basisOf(text, field)) {
    current = *parsed;
    note->setText(QString("An id (%1) is split into digits by the counts, "
                          "digit 0 varying slowest; each loop walks the digit "
                          "it takes.")
                      .arg(field == "subgroup_basis" ? "the subgroup id"
                                                     : "the lane id"));
  } else {
    // Not a basis yet: one digit per loop, each loop its own, counts 1.
    const size_t rank = space ? space->rank() : 1;
    current.counts.assign(rank, 1);
    for (size_t i = 0; i < rank; ++i)
      current.mapping.push_back(static_cast<int64_t>(i));
    note->setText("The box holds no basis (" +
                  QString::fromStdString(parsed.error()) +
                  "): starting from one digit per "
                  "loop.");
  }

  countsGrid = new QGridLayout;
  loopsGrid = new QGridLayout;
  auto *add = new QPushButton("Add digit");
  add->setObjectName("basisAddDigit");
  auto *remove = new QPushButton("Remove last digit");
  remove->setObjectName("basisRemoveDigit");
  connect(add, &QPushButton::clicked, this, &BasisEditor::addDigit);
  connect(remove, &QPushButton::clicked, this, &BasisEditor::removeDigit);
  auto *digitButtons = new QHBoxLayout;
  digitButtons->addWidget(add);
  digitButtons->addWidget(remove);
  digitButtons->addStretch(1);

  auto *column = new QVBoxLayout;
  column->addWidget(new QLabel("<b>Counts</b> (digit 0 varies slowest)"));
  column->addLayout(countsGrid);
  column->addLayout(digitButtons);
  column->addWidget(new QLabel("<b>Loops</b>: the digit each loop walks"));
  column->addLayout(loopsGrid);
  finish(column);
  rebuild();
}

QString BasisEditor::text() const {
  return QString::fromStdString(config::printAttribute(current.toAttribute()));
}

void BasisEditor::rebuild() {
  building = true;
  auto clearGrid = [](QGridLayout *grid) {
    while (QLayoutItem *item = grid->takeAt(0)) {
      delete item->widget();
      delete item;
    }
  };
  clearGrid(countsGrid);
  clearGrid(loopsGrid);
  countBoxes.clear();
  digitBoxes.clear();

  for (size_t j = 0; j < current.counts.size(); ++j) {
    auto *box = new QSpinBox;
    box->setObjectName(QString("basisCount%1").arg(j));
    box->setRange(0, kMaximumCount);
    box->setValue(static_cast<int>(
        std::clamp<int64_t>(current.counts[j], 0, kMaximumCount)));
    connect(box, &QSpinBox::valueChanged, this, [this, j](int value) {
      if (!building)
        setCount(j, value);
    });
    countsGrid->addWidget(new QLabel(QString("digit %1").arg(j)), 0,
                          static_cast<int>(j));
    countsGrid->addWidget(box, 1, static_cast<int>(j));
    countBoxes.push_back(box);
  }

  for (size_t i = 0; i < current.mapping.size(); ++i) {
    QString name = QString("d%1").arg(i);
    if (space && i < space->rank()) {
      const int64_t bound = space->bounds[i];
      name += " · " + (bound < 0 ? QString("?") : QString::number(bound));
      if (space->isReduction(i))
        name += " · reduction";
    }
    auto *box = new QComboBox;
    box->setObjectName(QString("basisDigitOf%1").arg(i));
    for (size_t j = 0; j < current.counts.size(); ++j)
      box->addItem(QString("digit %1 (count %2)").arg(j).arg(current.counts[j]),
                   static_cast<qlonglong>(j));
    const int64_t digit = current.mapping[i];
    int index = box->findData(static_cast<qlonglong>(digit));
    if (index < 0) {
      // What the text says, kept: the rules name the problem.
      box->addItem(QString("digit %1 (no such digit)").arg(digit),
                   static_cast<qlonglong>(digit));
      index = box->count() - 1;
    }
    box->setCurrentIndex(index);
    connect(box, &QComboBox::currentIndexChanged, this, [this, i, box] {
      if (!building)
        setDigitOf(i, box->currentData().toLongLong());
    });
    loopsGrid->addWidget(new QLabel(name), static_cast<int>(i), 0);
    loopsGrid->addWidget(box, static_cast<int>(i), 1);
    digitBoxes.push_back(box);
  }
  building = false;
  refresh();
}

void BasisEditor::refresh() {
  // The digits' counts in the loops' choices.
  for (QComboBox *box : digitBoxes)
    for (int k = 0; k < box->count(); ++k) {
      const qlonglong digit = box->itemData(k).toLongLong();
      if (digit >= 0 && static_cast<size_t>(digit) < current.counts.size())
        box->setItemText(k,
                         QString("digit %1 (count %2)")
                             .arg(digit)
                             .arg(current.counts[static_cast<size_t>(digit)]));
    }
  // The attribute, and what it names.
  QString line = text();
  const int64_t product = current.product();
  line += QString("\n%1 id(s)").arg(product);
  if (threads)
    line += product == *threads ? QString(", as many as there are")
                                : QString(", of %1 there are").arg(*threads);
  std::vector<bool> walked(current.counts.size(), false);
  for (int64_t digit : current.mapping)
    if (digit >= 0 && static_cast<size_t>(digit) < walked.size())
      walked[static_cast<size_t>(digit)] = true;
  QStringList idle;
  for (size_t j = 0; j < walked.size(); ++j)
    if (!walked[j] && current.counts[j] > 1)
      idle << QString::number(j);
  if (!idle.isEmpty())
    line += "\ndigit " + idle.join(", ") +
            " walks no loop: the ids it tells apart hold the same elements";
  result->setText(line);
}

void BasisEditor::changed(bool digitsChanged) {
  // Rebuilt only when digits come or go: a count being typed keeps its box.
  if (digitsChanged)
    rebuild();
  else
    refresh();
  emit valueChanged(text());
}

void BasisEditor::setCount(size_t digit, int64_t count) {
  if (digit >= current.counts.size())
    return;
  current.counts[digit] = count;
  if (digit < countBoxes.size() && countBoxes[digit]->value() != count) {
    building = true;
    countBoxes[digit]->setValue(static_cast<int>(count));
    building = false;
  }
  changed(false);
}

void BasisEditor::setDigitOf(size_t loop, int64_t digit) {
  if (loop >= current.mapping.size())
    return;
  current.mapping[loop] = digit;
  if (loop < digitBoxes.size()) {
    const int index = digitBoxes[loop]->findData(static_cast<qlonglong>(digit));
    if (index < 0)
      return changed(true); // a digit the boxes do not offer: show it
    building = true;
    digitBoxes[loop]->setCurrentIndex(index);
    building = false;
  }
  changed(false);
}

void BasisEditor::addDigit() {
  if (current.counts.size() >= kMaximumDigits)
    return;
  current.counts.push_back(1);
  changed(true);
}

void BasisEditor::removeDigit() {
  if (current.counts.size() <= 1)
    return;
  current.counts.pop_back();
  changed(true);
}

} // namespace tilescope::widgets
