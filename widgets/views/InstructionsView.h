// The Run panel's Instructions tab: the compiled kernel's instructions
// (core/isa), kernel by kernel, cut by its loops (the prologue, one step of
// each loop, the epilogue), each region's classed counts in a line and its
// instructions under it with their line in the assembly file, class and
// width, the cells they move, and for SASS the PTX line each came from.
#pragma once

#include "core/isa/Assembly.h"
#include "core/isa/SourceCounters.h"

#include <QString>
#include <QTreeWidget>

#include <filesystem>
#include <optional>
#include <set>
#include <vector>

namespace tilescope::widgets {

// A compiled try's assembly, read: each file with its listing or why not.
struct CompiledInstructions {
  struct File {
    std::filesystem::path path;
    isa::Listing listing;
    // Per kernel: its accumulator cells and its MMAs' operand cells (LHS,
    // RHS: a loop they do not index left open, -1) linked to its lines
    // (empty where none is, or the op's loops were not given).
    // SASS: its cells through its PTX's (isa::sassCells).
    std::vector<isa::CellLink> links;
    // SASS: the PTX file it was made from (X.ptx beside X.sass), where
    // read too, and per kernel the statements of the PTX kernel of its
    // name (made once: they link its cells and name each line's source).
    std::optional<size_t> ptx;
    std::vector<std::optional<isa::PtxStatements>> statements;
    // SASS: Nsight Compute's counters over each kernel profiled, with its
    // banks counted against those predicted.
    std::vector<isa::KernelCounters> counters;
    QString error; // set: the file could not be read as assembly
  };
  std::vector<File> files;
  // Why counters were given and none laid (no SASS kernel of theirs).
  QString countersNote;
  // Reads every file (off the GUI thread: a file may be large), each
  // kernel's accumulator and operand cells placed in the loops of `space`
  // (the op the try compiled) where given; a convolution's input and
  // filter elements at the IGEMM points that read them where `igemm` is
  // given (`space` its IGEMM loops); Nsight Compute's counters of a
  // profiled run over the SASS where `profiled` holds some.
  static CompiledInstructions
  read(const std::vector<std::filesystem::path> &,
       const config::IterationSpace *space = nullptr,
       const config::ImplicitGemm *igemm = nullptr,
       const std::vector<isa::ProfiledKernel> &profiled = {});

private:
  // Each SASS file's cells through the PTX beside it, and its counters.
  static void linkSassToPtx(CompiledInstructions &compiled,
                            const std::vector<isa::ProfiledKernel> &profiled);
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
  // Selects the instructions that touch the loop point `point` of the op's
  // workgroup tile: the store and the MMAs of its accumulator cell, and the
  // global loads, shared stores and loads and MMAs of its LHS and RHS
  // elements, in every kernel shown (the PTX and its SASS), the first
  // scrolled to. False where no kernel shown links it.
  bool showCell(const std::vector<int64_t> &point);
  // The lines selected, for tests.
  std::vector<size_t> selectedLines() const;

signals:
  // An instruction that touches cells was chosen: its cells (loop points of
  // the op's workgroup tile, -1 for a loop left open) and what they are in
  // words; empty cells when the chosen line touches none.
  void cellsChosen(const std::set<std::vector<int64_t>> &cells,
                   const QString &what);

private:
  void onCurrentChanged(QTreeWidgetItem *item);
  CompiledInstructions shown;
};

} // namespace tilescope::widgets
