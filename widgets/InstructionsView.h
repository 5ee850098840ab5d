// The Run panel's Instructions tab: the compiled kernel's instructions
// (core/isa), kernel by kernel, cut by its loops (the prologue, one step of
// each loop, the epilogue), each region's classed counts in a line and its
// instructions under it with their line in the assembly file, class and
// width.
#pragma once

#include "core/isa/Assembly.h"

#include <QString>
#include <QTreeWidget>

#include <filesystem>
#include <vector>

namespace tilescope::widgets {

// A compiled try's assembly, read: each file with its listing or why not.
struct CompiledInstructions {
  struct File {
    std::filesystem::path path;
    isa::Listing listing;
    QString error; // set: the file could not be read as assembly
  };
  std::vector<File> files;
  // Reads every file (off the GUI thread: a file may be large).
  static CompiledInstructions read(const std::vector<std::filesystem::path> &);
};

class InstructionsView : public QTreeWidget {
  Q_OBJECT

public:
  explicit InstructionsView(QWidget *parent = nullptr);
  // Shows `compiled` (empty: the placeholder says how to get some).
  void show(const CompiledInstructions &compiled);
  // The regions shown, "KERNEL: KIND LABEL: summary", and " | banks W"
  // with the worst conflict of a region's shared-memory accesses, for
  // tests.
  QStringList regionLines() const;
};

} // namespace tilescope::widgets
