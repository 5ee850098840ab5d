// What the commands that read IREE files share: the --op, --json and --iree
// options, a file read and parsed by IREE in the worker, IREE's reading of
// attributes for edits, and config differences printed and as JSON.
#pragma once

#include "core/config/rules/Validation.h"
#include "core/document/Document.h"
#include "core/edit/ConfigDiff.h"
#include "core/edit/EditableDocument.h"
#include "core/layout/AttentionLayouts.h"
#include "core/util/Result.h"
#include "core/workbench/Workbench.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tilescope::cli {

extern const QCommandLineOption kJsonOption;
extern const QCommandLineOption kIreeOption;
extern const QCommandLineOption kOpOption;

// --op's value, "0" (the first dispatch's root op: findOp) when not given.
std::string opSpecOf(const QCommandLineParser &parser);

// The command's workbench (app::makeWorkbench): the IREE --iree names
// (else found the usual way) and the workspace --workspace names (else the
// default), made absolute: try folders are recorded as they are named, and
// a run bundle or a later command in another folder must find them.
workbench::Workbench workbenchOf(const QCommandLineParser &parser);

// The file read and parsed by IREE in the worker process, with its text;
// `exitCode` says why not (kExitBadInput, kExitIreeUnavailable).
Result<document::Document> openDocument(const std::string &path,
                                        const workbench::Workbench &bench,
                                        int &exitCode);

// A root op of a file: the file opened as above and `opSpec` (DISPATCH:OP)
// found in it; an unknown op is a usage error naming the file.
struct OpenedOp {
  document::Document document;
  edit::OpRef ref;
};
Result<OpenedOp> openRootOp(const std::string &path, const std::string &opSpec,
                            const workbench::Workbench &bench, int &exitCode);

// A root op of a file as the texts `explain` and `render` take: its GPU
// lowering config, loops, element types, indexing maps, target and
// translation_info (empty where the file has none).
struct RootOpTexts {
  std::string config, iterationSpace, types, maps, target, translationInfo;
  // The root op's workgroup tile an op fused into it runs on (empty for the
  // root op itself): what edit::opLayoutInputs gives the window's views.
  std::vector<int64_t> fusedWorkgroupTile;
  // A convolution whose config tiles IREE's implicit-GEMM loops: how they
  // are made from the convolution's (the space above is the IGEMM's).
  std::optional<config::ImplicitGemm> implicitGemm;
  // Attention: its two contractions as IREE decomposes and lays them out
  // (the texts above are the op's outer config and loops).
  std::optional<layout::AttentionLayouts> attention;
};
Result<RootOpTexts> rootOpTexts(const std::string &path,
                                const std::string &opSpec,
                                const workbench::Workbench &bench,
                                int &exitCode);

// "INDENTseverity: field: message  [rule]", a line each.
void printProblems(const std::vector<config::Problem> &problems,
                   std::ostream &out, const std::string &indent = "  ");

// "@dispatch: op" and "  field: before -> after" lines ("(unset)" for none).
void printDifferences(const edit::DocumentDifference &difference,
                      std::ostream &out);

} // namespace tilescope::cli
