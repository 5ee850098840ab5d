// The selected root op's configuration as a Qt table model: a section row
// per attribute (lowering_config, translation_info) and a row per field
// with its value as it stands, its value as opened and the loops a tile
// list runs over. Rows come from the session's document; when the session
// says a field changed (EditSession::fieldChanged), the rows are read again
// and only those whose text changed are announced (dataChanged), so the
// editor's boxes, and what is being typed in them, stay. Rows are inserted
// or removed (a reset) only when a field is added or removed.
//
// The model also holds what the editor's dialogs and hints need of the op:
// its loops, its config as read, its pipeline, the target's intrinsics and
// how many lanes a subgroup and subgroups a workgroup have.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/edit/EditableDocument.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace tilescope::widgets {

class EditSession;

class ConfigFieldModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { kField, kValue, kOriginal, kColumns };
  // The field's canonical name ("translation_info.workgroup_size"); empty on
  // a section row.
  static constexpr int kFieldNameRole = Qt::UserRole;
  static constexpr int kSectionRole = Qt::UserRole + 1;
  // A value or an original whole (Display shows an intrinsic by its name).
  static constexpr int kFullValueRole = Qt::UserRole + 2;

  // What the editor's dialogs and hints need of the shown op.
  struct OpContext {
    QString heading; // the op, its line, target and loops
    std::optional<config::IterationSpace> space;
    std::optional<config::LoweringConfig> loweringConfig;
    QString pipeline;
    std::optional<int64_t> subgroupSize, subgroups;
    QStringList intrinsics;
    // A #iree_gpu.derived_thread_config: IREE derives its tiles.
    bool derived = false;
    QString configText; // the lowering config as the document holds it
  };

  explicit ConfigFieldModel(QObject *parent = nullptr);

  // `op` of the session's document (unset: none); the rows follow the
  // session's field changes until the next call.
  void show(const EditSession *session, std::optional<edit::OpRef> op);
  std::optional<edit::OpRef> shownOp() const { return op; }
  const OpContext &context() const { return about; }

  // The field rows' names, in row order; a field's row (-1: none).
  QStringList fields() const;
  int rowOf(const QString &field) const;
  bool isSection(int row) const;
  // "d0 1024 · d1 1024 · d2 1024 red." for a tile list's row, else empty.
  QString loopsOf(int row) const;

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role) const override;

signals:
  // The shown op's context changed (another op, or an edit of its
  // pipeline, sizes or tiles).
  void contextChanged();

private:
  struct Row {
    bool section = false;
    QString field;    // canonical name, or the section's title
    QString value;    // whole, as the document holds it
    QString original; // whole; "(absent)" when the op had no such field
    QString loops;
    bool operator==(const Row &) const = default;
  };
  // Reads the rows and context again; announces what changed (`anew`:
  // everything, as for another op).
  void refresh(bool anew = false);
  std::vector<Row> rowsOf(const OpContext &context) const;
  OpContext contextOf() const;
  QString valueTip(const Row &row) const;

  const EditSession *edits = nullptr;
  std::optional<edit::OpRef> op;
  std::vector<Row> rows;
  OpContext about;
};

// Whether a field is a tile list (one entry per loop).
bool isTileField(const QString &field);

} // namespace tilescope::widgets
