// The Problems panel: what is wrong with the selected op's config, from
// every source at once, each line marked by where it comes from (a value
// not applied, the rules, IREE's reading of the edited text, IREE's
// pipeline constraints); activating a line goes to its field or its line.
// A list view of a ProblemModel: the rows are the model's.
#pragma once

#include "core/config/rules/Validation.h"
#include "widgets/editor/ProblemModel.h"

#include <QListView>
#include <QString>
#include <QStringList>

#include <vector>

namespace tilescope::widgets {

class ProblemList : public QListView {
  Q_OBJECT

public:
  struct Contents {
    QString draftField, draftError; // a typed value the model refused
    std::vector<config::Problem> rules;
    QStringList iree; // IREE's words on the edited text, a line each
    std::vector<config::Problem> constraints; // IREE's pipeline constraints
    QString constraintSummary; // IREE's verdict in a line, when no problem
  };
  // A message for the config editor's field row.
  struct FieldMessage {
    QString field, message;
    bool error = false;
  };

  explicit ProblemList(QWidget *parent = nullptr);

  void show(const Contents &contents);
  ProblemModel *problems() const { return rows; }
  // A file that did not open: IREE's lines, each going to its line.
  void showError(const QString &message);
  // What the config editor marks on its rows for `contents`.
  static std::vector<FieldMessage> fieldMessages(const Contents &contents);

signals:
  void fieldActivated(const QString &field);
  void lineActivated(int line);

private:
  ProblemModel *rows;
};

} // namespace tilescope::widgets
