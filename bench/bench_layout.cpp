// Speed of the layout engine and its pictures (figures, not pass/fail):
//   - ownership queries per second,
//   - scene build and one-frame draw for nested layouts of 4K, 64K, 1M and
//     16M elements at whole-view and 1:1 zoom (a 1280x800 view),
//   - a config edit re-derived and redrawn (64K-element tile).
//   - a config holding a 50,000-entry list read.
// Goal: every frame under 16 ms; an edit re-derived and redrawn under 16 ms;
// a long list read in well under a second.
#include "BenchTiming.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/NestedLayout.h"
#include "widgets/render/Palette.h"
#include "widgets/render/ScenePainter.h"
#include "widgets/render/Scenes.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace tilescope;
using namespace tilescope::bench;

namespace {

// A square layout of side `side` (a power of two >= 64): 4 subgroups of 64
// lanes, 4-element vectors, batches for the rest.
config::NestedLayoutAttr squareLayout(int64_t side) {
  return {{2, 2}, {side / 64, side / 64}, {1, 1}, {16, 4}, {2, 8}, {1, 2},
          {1, 16}};
}

} // namespace

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication application(argc, argv);
  const QSize view(1280, 800);
  QImage frame(view, QImage::Format_ARGB32_Premultiplied);
  const render::Theme theme = render::Theme::light();
  const render::ScenePainter painter;

  // A config with a long list (a 50,000-entry lane_basis, as a hostile or
  // mistaken file holds): read once. Each element's location is counted
  // on from the last, so the read is one pass over the text.
  {
    std::string counts, mapping;
    for (int i = 0; i < 50000; ++i) {
      counts += (i ? ", 1" : "1");
      mapping += (i ? ", " : "") + std::to_string(i);
    }
    const std::string text = "#iree_gpu.lowering_config<{lane_basis = [[" +
                             counts + "], [" + mapping +
                             "]], workgroup = [1, 0]}>";
    const auto start = Clock::now();
    auto parsed = config::LoweringConfig::parse(text);
    std::printf("a 50,000-entry lane_basis read: %.1f ms (%s)\n",
                millisecondsSince(start), parsed ? "read" : "refused");
  }

  // Ownership queries.
  {
    auto layout = *layout::NestedLayout::create(squareLayout(1024), 4, 64);
    const int64_t n = layout.elementCount();
    int64_t sum = 0;
    const auto start = Clock::now();
    layout::Owner owner;
    for (int64_t flat = 0; flat < n; ++flat)
      if (layout.primaryOwner(flat, owner))
        sum += owner.lane;
    const double ms = millisecondsSince(start);
    std::printf("ownership primaryOwner: %.1f M queries/s (%lld queries, "
                "checksum %lld)\n",
                static_cast<double>(n) / ms / 1000.0, static_cast<long long>(n),
                static_cast<long long>(sum));
    const auto start2 = Clock::now();
    const int64_t full = 20000;
    for (int64_t flat = 0; flat < full; ++flat)
      sum +=
          static_cast<int64_t>(layout.ownersOf(layout.unflatten(flat)).size());
    std::printf("ownership ownersOf (all owners): %.2f M queries/s\n",
                static_cast<double>(full) / millisecondsSince(start2) / 1000.0);
  }

  // Scenes of growing size.
  for (int64_t side : {64, 256, 1024, 4096}) {
    const auto buildStart = Clock::now();
    auto layout = std::make_shared<const layout::NestedLayout>(
        *layout::NestedLayout::create(squareLayout(side), 4, 64));
    const render::GridScene scene =
        render::nestedLayoutScene(layout, render::ColorBy::Lane, 0, 1, {0, 0});
    const double buildMs = millisecondsSince(buildStart);
    const double wholeCell = painter.fitCellSize(scene, QSizeF(view));
    const double whole = medianMilliseconds(11, [&] {
      QPainter p(&frame);
      painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(view)), theme,
                    wholeCell);
    });
    const double oneToOne = medianMilliseconds(11, [&] {
      QPainter p(&frame);
      painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(view)), theme, 24.0,
                    QPointF(side * 12.0, side * 12.0));
    });
    std::printf(
        "layout %lldx%lld (%lld elements): build %.3f ms, frame whole-view "
        "%.2f ms, frame 1:1 %.2f ms\n",
        static_cast<long long>(side), static_cast<long long>(side),
        static_cast<long long>(side * side), buildMs, whole, oneToOne);
  }

  // A config edit: re-derive the layout and redraw (64K-element tile).
  {
    auto config = *config::LoweringConfig::parse(
        "#iree_gpu.lowering_config<{lane_basis = [[1, 64], [0, 1]], "
        "partial_reduction = [0, 4096], subgroup_basis = [[1, 4], [0, 1]], "
        "thread = [0, 4], workgroup = [16, 0]}>");
    const auto space = *config::IterationSpace::parse("4096x65536:pr");
    int64_t thread = 4;
    const double edit = medianMilliseconds(11, [&] {
      thread = thread == 4 ? 8 : 4;
      config.setTileSizes(config::TilingLevel::Thread, {0, thread});
      auto derived = std::make_shared<const layout::DerivedLayout>(
          *layout::deriveLayout(config, space));
      const render::GridScene scene =
          render::configScene(derived, render::ColorBy::Lane, 0, 1, 0);
      QPainter p(&frame);
      painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(view)), theme, 2.0);
    });
    std::printf(
        "config edit re-derived and redrawn (16x4096 tile = 64K elements): "
        "%.2f ms\n",
        edit);
  }
  return 0;
}
