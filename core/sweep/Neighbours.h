// A sweep's neighbourhood where IREE's constraints give none: the config's
// tiles halved and doubled, a CPU config's tiles one entry at a time, a
// reduction's idle lanes filled or its threads' steps and subgroups
// halved and doubled, and an attention's subgroups along the
// query rows, the way IREE's attention config sets them (KernelConfig.cpp:
// one subgroup_basis count on M for both contractions, workgroup_size the
// subgroups' lanes; IREE 3.13 states attention's space for gfx942 only).
#pragma once

#include "core/document/Document.h"
#include "core/sweep/Sweep.h"

#include <vector>

namespace tilescope::sweep {

// The neighbours of an op's config when no axes are given: each non-zero
// entry of its workgroup and reduction tiles halved and doubled (a
// workgroup tile already covering its loop not doubled).
std::vector<SweepAxis> neighbourAxes(const document::Document &document,
                                     edit::OpRef op);

// Every field of the op's config, each with the values a person is offered
// first when sweeping it (the Sweep panel's field list): an integer list's
// entries one axis each ("workgroup[1]"), its neighbours by the rule
// neighbourAxes uses (halved and doubled; a tile of elements covering its
// loop not doubled, a divisor of its loop kept one; an entry of 0 as it
// is); any other field its value as it stands.
std::vector<SweepAxis> fieldAxes(const document::Document &document,
                                 edit::OpRef op);

// The neighbours of a CPU lowering config (#iree_cpu.lowering_config),
// which has no workgroup or reduction tiles: each non-zero entry of its
// distribution (the cache tile following where it equals it),
// vector_common_parallel and vector_reduction tiles halved and doubled, one
// at a time (a tile past its loop's size is not doubled). None for another
// config.
std::vector<SweepPoint> neighbourPoints(const document::Document &document,
                                        edit::OpRef op);

// For a VectorDistribute reduction whose lane_basis uses fewer lanes than
// a subgroup has (IREE's own config for a GroupNorm's reduction keeps one
// lane of 32 at work, the others repeating it): candidates that spread its
// longest reduction loop over every lane of 2, 8 or 32 subgroups, a step of
// one or 16 elements a thread, workgroup_size following. None otherwise.
std::vector<SweepPoint> laneFillingPoints(const document::Document &document,
                                          edit::OpRef op);

// For a VectorDistribute reduction-style config whose lanes fill a
// subgroup (a reduction, or a matvec IREE configures as one: lane_basis,
// subgroup_basis, partial_reduction and thread over each loop): on its
// longest reduction loop, each thread's step halved and doubled (up to 16)
// and the subgroups on it halved and doubled, partial_reduction and
// workgroup_size following, never past the loop. The config's own point is
// not among them. None for another config.
std::vector<SweepPoint>
reductionSpreadPoints(const document::Document &document, edit::OpRef op);

// Each point of `first` (or the config, if none) with the config and each
// point of `second`: settings joined, distances added; the config itself
// (no settings) left out.
std::vector<SweepPoint> crossPoints(const std::vector<SweepPoint> &first,
                                    const std::vector<SweepPoint> &second);

// For a VectorDistribute attention with a decomposition_config whose qk and
// pv bases count subgroups on the query rows (M): half and twice as many
// subgroups, each holding as many rows as now (the workgroup's M tile
// following, within the loop) or sharing the M tile as it is (where each
// keeps at least the intrinsic's M rows); both bases and workgroup_size
// follow. None for another op.
std::vector<SweepPoint>
attentionSubgroupPoints(const document::Document &document, edit::OpRef op);

// Every combination of the axes' values as points, the last axis turning
// fastest (what planSweep makes of axes), each as far from the config as the
// entries it changes.
std::vector<SweepPoint> axisPoints(const document::Document &document,
                                   edit::OpRef op,
                                   const std::vector<SweepAxis> &axes);

} // namespace tilescope::sweep
