// The open document's dispatches and their root ops as a Qt item model:
// a dispatch row (name, pipeline, target) with its root ops under it (the
// op, its kind and loops), each op marked edited (✎, bold) or with its
// first problem (an error's or a warning's icon, as `check` grades it).
// Rows come from the session's document; markers are kept per op and
// redone when the session says an op changed (EditSession::fieldChanged)
// or when asked (refreshMarkers), so painting never runs the rules.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>
#include <QString>

#include <vector>

namespace tilescope::widgets {

class EditSession;

// "linalg.generic  (root op, set 0)".
QString opLabel(const document::RootOp &op);

class DispatchModel : public QAbstractItemModel {
  Q_OBJECT

public:
  static constexpr int kLineRole = Qt::UserRole;
  static constexpr int kDispatchRole = Qt::UserRole + 1;
  static constexpr int kRootOpRole = Qt::UserRole + 2; // -1 on a dispatch

  explicit DispatchModel(QObject *parent = nullptr);

  // The session's document, anew (markers included); nullptr: none.
  void show(const EditSession *session);
  const EditSession *session() const { return edits; }
  size_t dispatchCount() const { return rows.size(); }
  // Markers from the document as it stands; in a file with many ops only
  // `focusDispatch`'s (-1: all).
  void refreshMarkers(int focusDispatch);

  QModelIndex index(int row, int column,
                    const QModelIndex &parent = {}) const override;
  QModelIndex parent(const QModelIndex &child) const override;
  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role) const override;

private:
  struct OpRow {
    QString label, shape;
    int line = 0;
    bool edited = false;
    int marker = 0; // 0 none, 1 warning, 2 error
    QString problem;
  };
  struct DispatchRow {
    QString name, pipeline, target, tip;
    int line = 0;
    std::vector<OpRow> ops;
  };
  void mark(size_t dispatch);

  const EditSession *edits = nullptr;
  std::vector<DispatchRow> rows;
};

// The browser's filter: a dispatch shows when it or one of its ops matches
// (all its ops when it matches itself), an op when it matches.
class DispatchFilter : public QSortFilterProxyModel {
  Q_OBJECT

public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  void setText(const QString &text);

protected:
  bool filterAcceptsRow(int row, const QModelIndex &parent) const override;

private:
  bool matches(const QModelIndex &index) const;
  QString text;
};

} // namespace tilescope::widgets
