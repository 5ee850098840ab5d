// tilescope-cli render: draws a scene to PNG, SVG or PDF, with no IREE
// installed and no display (the offscreen platform).
//
//   render --layout '<nested_layout>' [--shape 64x64] -o out.svg
//   render --config '<lowering_config>' --iteration-space 4x6656x16384:ppr
//          [--step 3] [--grid] -o out.png
//   render --mma MFMA_F32_32x32x8_F16 [--operand acc] -o out.png
//   render --swizzle '#iree_codegen.xor_shuffle<128, 8>' [--access column]
//          -o out.png
//   render --basis '[[16, 4], [1, 0]]' -o out.png
//   render FILE --op DISPATCH:OP [--view layouts|lane-basis|subgroup-basis|
//          mma|swizzle|grid] [--translation-info '<...>'] -o out.png
//
// --lane N or --subgroup N (layouts, configs, MMA lanes) and --thread N
// (bases) mark that owner's cells. A root op of a file is drawn by
// render::opPicture, the function the window's Layout tab draws with.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/LayoutInputs.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/layout/OpLayouts.h"
#include "core/util/Numbers.h"
#include "widgets/render/OpPicture.h"
#include "widgets/render/OpScenes.h"
#include "widgets/render/SceneExport.h"
#include "widgets/render/Scenes.h"

#include <QCommandLineParser>

#include <iostream>

namespace tilescope::cli {
namespace {

Result<render::ColorBy> colorBy(const QString &name) {
  if (name.isEmpty())
    return render::ColorBy::Lane;
  if (auto owner = render::ownerColoringNamed(name.toStdString()))
    return *owner;
  return Error{"--color-by must be subgroup, lane or register, not '" +
               name.toStdString() + "'"};
}

// What --thread, --subgroup or --lane marks: the colour key and the
// colouring it is a key of (Custom: the scene's own, a basis's threads).
// Options a picture cannot show are errors, not silently dropped.
Result<std::pair<int64_t, render::ColorBy>> markedKey(const LayoutInputs &in,
                                                      bool grid) {
  using Kind = LayoutInputs::Kind;
  const bool owner = in.subgroup || in.lane;
  if (in.subgroup && in.lane)
    return Error{"a picture marks one colour: give --subgroup or --lane, not "
                 "both (`tilescope-cli explain --subgroup S --lane L` lists "
                 "one thread's elements)"};
  if (in.thread && in.kind != Kind::Basis)
    return Error{std::string("--thread marks a thread of a --basis picture") +
                 (in.kind == Kind::Layout || in.kind == Kind::Config
                      ? "; for a layout or config give --lane or --subgroup"
                  : in.kind == Kind::Mma ? "; for an MMA give --lane"
                                         : "")};
  switch (in.kind) {
  case Kind::Basis:
    if (owner)
      return Error{"a --basis picture marks --thread, not --subgroup/--lane"};
    return std::pair{in.thread.value_or(-1), render::ColorBy::Custom};
  case Kind::Mma:
    if (in.subgroup)
      return Error{"an MMA fragment is one subgroup's: mark a --lane"};
    // mmaScene marks the lane itself, whatever the colouring.
    return std::pair{int64_t{-1},
                     in.lane ? render::ColorBy::Lane : render::ColorBy::Custom};
  case Kind::Swizzle:
    if (owner)
      return Error{"a swizzle picture is coloured by bank; --subgroup and "
                   "--lane do not apply (--lanes sets how many read)"};
    return std::pair{int64_t{-1}, render::ColorBy::Custom};
  case Kind::Config:
    if (owner && grid)
      return Error{"the workgroup grid has no lanes or subgroups to mark"};
    break;
  case Kind::Layout:
    break;
  }
  if (in.subgroup)
    return std::pair{*in.subgroup, render::ColorBy::Subgroup};
  if (in.lane)
    return std::pair{*in.lane, render::ColorBy::Lane};
  return std::pair{int64_t{-1}, render::ColorBy::Custom};
}

// The picture of a root op of a file, as the window draws it
// (render::opPicture on the document, --translation-info applied to it as
// an edit first), its note printed. What describes an op without a file
// (--iteration-space, --types, --maps, --target) is refused beside one.
Result<render::GridScene> fileOpScene(const QCommandLineParser &parser,
                                      const LayoutOptions &options,
                                      const QString &viewName,
                                      render::OpViewRequest request,
                                      int &exitCode) {
  exitCode = kExitUsage;
  for (const QCommandLineOption *option :
       {&options.iterationSpace, &options.types, &options.maps,
        &options.target})
    if (parser.isSet(*option))
      return Error{"--" + option->names().front().toStdString() +
                   " describes an op without a file; FILE --op draws the op "
                   "as the file has it (edit it with set-config, or "
                   "--translation-info here)"};
  // What the typed pictures take and a file op's views do not.
  for (const QCommandLineOption *option :
       {&options.element, &options.shape, &options.operand, &options.access,
        &options.lanes, &options.elementBytes, &options.subgroups,
        &options.subgroupSize, &options.colMajor})
    if (parser.isSet(*option))
      return Error{"--" + option->names().front().toStdString() +
                   " is for a typed --layout, --mma or --swizzle; a root "
                   "op's views take --view, --color-by, --step, --dims, "
                   "--at and a --lane, --subgroup or --thread to mark"};
  const auto view = render::opViewFromName(viewName);
  if (!view)
    return Error{"--view must be one of " +
                 render::opViewNames().join(", ").toStdString() + ", not '" +
                 viewName.toStdString() + "'"};
  request.kind = *view;
  const std::string path = parser.positionalArguments().front().toStdString();
  auto opened =
      openRootOp(path, opSpecOf(parser), workbenchOf(parser), exitCode);
  if (!opened)
    return Error{opened.error()};
  document::Document document = std::move(opened->document);
  if (parser.isSet(options.translationInfo)) {
    edit::EditableDocument editable(std::move(document));
    auto set =
        editable.set(opened->ref, "translation_info",
                     parser.value(options.translationInfo).toStdString());
    if (!set) {
      exitCode = kExitFailure;
      return Error{"--translation-info: " + set.error()};
    }
    document = editable.document();
  }
  render::OpPicture picture = render::opPicture(document, opened->ref, request);
  exitCode = kExitFailure;
  if (picture.scene.panels.empty())
    return Error{path + " --op " + opSpecOf(parser) + ", view " +
                 viewName.toStdString() + ": " + picture.note.toStdString()};
  std::cout << picture.note.toStdString() << "\n";
  exitCode = kExitOk;
  return std::move(picture.scene);
}

// What --thread, --subgroup or --lane marks in a file op's picture: the
// colour its view is coloured by, or an error naming the view's colouring.
Result<int64_t> fileOpMark(const LayoutInputs &in,
                           const render::GridScene &scene) {
  if (in.subgroup && in.lane)
    return Error{"a picture marks one colour: give --subgroup or --lane, not "
                 "both"};
  const auto [key, wanted, option] =
      in.thread ? std::tuple{*in.thread, render::ColorBy::Thread, "--thread"}
      : in.subgroup
          ? std::tuple{*in.subgroup, render::ColorBy::Subgroup, "--subgroup"}
      : in.lane ? std::tuple{*in.lane, render::ColorBy::Lane, "--lane"}
                : std::tuple{int64_t{-1}, scene.colorBy, ""};
  if (key < 0)
    return int64_t{-1};
  if (scene.colorBy != wanted)
    return Error{std::string(option) + ": this picture is coloured by " +
                 render::colorByName(scene.colorBy) +
                 (wanted == render::ColorBy::Thread
                      ? " (--thread marks a lane-basis or subgroup-basis view)"
                      : " (give --color-by " +
                            std::string(render::colorByName(wanted)) + ")")};
  return key;
}

// render's own options, beside the layout inputs (LayoutOptions).
struct RenderOptions {
  QCommandLineOption output{{"o", "output"}, "PNG, SVG or PDF file.", "FILE"};
  QCommandLineOption color{"color-by", "subgroup, lane or register.", "WHAT",
                           "lane"};
  QCommandLineOption dims{"dims", "The two dimensions to draw, e.g. 0,1.",
                          "R,C"};
  QCommandLineOption at{
      "at",
      "With --config: where each dimension not drawn is held, one index per "
      "dimension, e.g. 0,70,0 (the two drawn are ignored; default 0).",
      "I,J,..."};
  QCommandLineOption grid{"grid", "With --config: draw the workgroup grid."};
  QCommandLineOption view{
      "view",
      "With FILE: layouts, lane-basis, subgroup-basis, mma, swizzle or grid "
      "(the window's views; default layouts).",
      "VIEW", "layouts"};
  QCommandLineOption dark{"dark", "Dark theme."};
  QCommandLineOption cell{"cell-size", "Cell size in pixels (default 24).",
                          "PX", "24"};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({output, color, dims, at, grid, view, dark, cell});
  }
};

// How the picture is drawn: what colours it, which dimensions, where the
// others are held, the cell size.
struct Drawing {
  render::ColorBy color = render::ColorBy::Lane;
  bool colorGiven = false;
  // The two dimensions --dims R,C names (unset: the picture's choice, the
  // last two whose size > 1).
  std::optional<std::pair<size_t, size_t>> dims;
  std::vector<int64_t> slice;
  int64_t cellSize = 24;
};

// The drawing options, or the option at fault and why ({"--dims", "..."}).
Result<Drawing> drawingOf(const QCommandLineParser &parser,
                          const RenderOptions &options) {
  Drawing drawing;
  auto color = colorBy(parser.value(options.color));
  if (!color)
    return Error{"--color-by: " + color.error()};
  drawing.color = *color;
  drawing.colorGiven = parser.isSet(options.color);
  if (parser.isSet(options.dims)) {
    std::vector<int64_t> values;
    for (const QString &part : parser.value(options.dims).split(',')) {
      auto value = parseInt64(part.trimmed().toStdString());
      if (!value)
        return Error{"--dims: '" + part.toStdString() + "' is not an integer"};
      values.push_back(*value);
    }
    if (values.size() == 2 && values[0] >= 0 && values[1] >= 0)
      drawing.dims = std::pair{static_cast<size_t>(values[0]),
                               static_cast<size_t>(values[1])};
  }
  if (parser.isSet(options.at))
    for (const QString &part : parser.value(options.at).split(',')) {
      auto value = parseInt64(part.trimmed().toStdString());
      if (!value || *value < 0)
        return Error{"--at: '" + part.toStdString() +
                     "' is not an index (0 or more)"};
      drawing.slice.push_back(*value);
    }
  const auto cellSize = parseInt64(parser.value(options.cell).toStdString());
  if (!cellSize || *cellSize < 1 || *cellSize > 256)
    return Error{"--cell-size: must be 1 to 256 pixels"};
  drawing.cellSize = *cellSize;
  return drawing;
}

// --config's picture: the op's layouts (or with --grid its workgroup
// grid), from its config, loops and translation_info.
Result<render::GridScene> configScene(const LayoutInputs &inputs,
                                      render::ColorBy color,
                                      const Drawing &drawing, bool grid) {
  const auto &dims = drawing.dims;
  const auto &slice = drawing.slice;
  auto config = inputs.loweringConfig();
  if (!config)
    return Error{"--config: " + config.error()};
  auto space = inputs.iterationSpace();
  if (!space)
    return Error{"--iteration-space: " + space.error()};
  layout::DeriveOptions deriveOptions;
  deriveOptions.ireeRelease = inputs.ireeRelease;
  deriveOptions.subgroupSize = inputs.subgroupSize;
  auto read = inputs.translationInfo();
  if (!read)
    return Error{"--translation-info: " + read.error()};
  const std::optional<config::TranslationInfo> info = std::move(*read);
  if (grid) {
    auto derived = layout::deriveLayout(*config, *space, deriveOptions);
    if (!derived)
      return Error{"--config: " + derived.error()};
    auto shared =
        std::make_shared<const layout::DerivedLayout>(std::move(*derived));
    const auto [row, column] = render::pickDims(shared->workgroupCounts, dims);
    return render::workgroupGridScene(shared, row, column);
  }
  layout::OpLayoutRequest request{&*config, &*space, info ? &*info : nullptr,
                                  deriveOptions};
  auto layouts = layout::opLayouts(request);
  if (!layouts)
    return Error{"--config: " + layouts.error()};
  render::OpSceneOptions sceneOptions;
  sceneOptions.colorBy = color;
  sceneOptions.step = inputs.step;
  sceneOptions.subtitle = QString::fromStdString(config->print());
  sceneOptions.slice = slice;
  sceneOptions.dims = dims;
  auto drawn = render::opScene(*layouts, sceneOptions);
  if (!drawn)
    return Error{"--config: " + drawn.error()};
  return std::move(*drawn);
}

// The picture of what --layout, --basis, --config, --mma or --swizzle give,
// coloured by `color`; an Error is "--OPTION: why".
Result<render::GridScene> standaloneScene(const LayoutInputs *inputs,
                                          render::ColorBy color,
                                          const Drawing &drawing, bool grid) {
  const auto &dims = drawing.dims;
  render::GridScene scene;
  switch (inputs->kind) {
  case LayoutInputs::Kind::Layout: {
    auto layout = inputs->nestedLayout();
    if (!layout)
      return Error{"--layout: " + layout.error()};
    auto shared =
        std::make_shared<const layout::NestedLayout>(std::move(*layout));
    const auto [row, column] = render::pickDims(shared->shape(), dims);
    std::vector<int64_t> fixed(shared->rank(), 0);
    if (inputs->element)
      fixed = *inputs->element;
    scene = render::nestedLayoutScene(
        shared, color, row, column, fixed,
        QString::fromStdString(shared->attribute().print()));
    break;
  }
  case LayoutInputs::Kind::Basis: {
    auto basis = inputs->basis();
    if (!basis)
      return Error{"--basis: " + basis.error()};
    auto map = layout::BasisMap::create(*basis);
    if (!map)
      return Error{"--basis: " + map.error()};
    scene = render::basisScene(std::make_shared<const layout::BasisMap>(*map),
                               QString::fromStdString(inputs->text));
    break;
  }
  case LayoutInputs::Kind::Config: {
    auto drawn = configScene(*inputs, color, drawing, grid);
    if (!drawn)
      return Error{drawn.error()};
    scene = std::move(*drawn);
    break;
  }
  case LayoutInputs::Kind::Mma: {
    const layout::MmaIntrinsic *found = layout::findMmaIntrinsic(inputs->mma);
    if (!found)
      return Error{"--mma: unknown intrinsic '" + inputs->mma + "'"};
    if (inputs->lane && *inputs->lane >= found->subgroupSize)
      return Error{"--lane: lane " + std::to_string(*inputs->lane) +
                   " is not in " + inputs->mma + "'s " +
                   std::to_string(found->subgroupSize) + " lanes (0 to " +
                   std::to_string(found->subgroupSize - 1) + ")"};
    layout::MmaIntrinsic intrinsic =
        inputs->colMajor ? found->colMajor() : *found;
    scene = render::mmaScene(intrinsic,
                             color == render::ColorBy::Register
                                 ? render::ColorBy::Register
                                 : render::ColorBy::Lane,
                             inputs->lane.value_or(-1));
    if (inputs->operand) {
      const int keep = static_cast<int>(*inputs->operand);
      if (keep < static_cast<int>(scene.panels.size()))
        scene.panels = {scene.panels[static_cast<size_t>(keep)]};
    }
    break;
  }
  case LayoutInputs::Kind::Swizzle: {
    auto swizzle = inputs->swizzle();
    if (!swizzle)
      return Error{"--swizzle: " + swizzle.error()};
    scene = render::swizzleScene(*swizzle, inputs->accesses(*swizzle),
                                 inputs->elementBytes, inputs->bankModel());
    break;
  }
  }
  return scene;
}

} // namespace

int render(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli render: draw a layout, config, MMA, swizzle or basis, "
      "or the config of an IREE FILE's root op --op DISPATCH:OP.");
  LayoutOptions options;
  options.addTo(parser);
  const RenderOptions own;
  own.addTo(parser);
  if (!parseCommandLine(parser, arguments, "render"))
    return kExitUsage;
  if (!parser.isSet(own.output)) {
    std::cerr
        << "tilescope-cli render: -o FILE (.png, .svg or .pdf) is required\n";
    return kExitUsage;
  }
  // Errors below are "--OPTION: why", printed as fail() prints them.
  auto drawing = drawingOf(parser, own);
  if (!drawing) {
    std::cerr << "tilescope-cli: " << drawing.error() << "\n";
    return kExitFailure;
  }
  const bool grid = parser.isSet(own.grid);

  // The picture with colour `marked` marked (< 0: none), to the file -o
  // names.
  auto write = [&](render::GridScene scene, int64_t marked) {
    if (marked >= 0 && scene.colorCount > 0 && marked >= scene.colorCount)
      return fail("render", std::string(render::colorByName(scene.colorBy)) +
                                " " + std::to_string(marked) +
                                " is not in the picture (it has " +
                                std::to_string(scene.colorCount) + ": 0 to " +
                                std::to_string(scene.colorCount - 1) + ")");
    scene = render::markColorKey(std::move(scene), marked);
    QString error;
    const render::Theme theme = parser.isSet(own.dark)
                                    ? render::Theme::darkTheme()
                                    : render::Theme::light();
    if (!render::writeScene(scene, parser.value(own.output), theme,
                            static_cast<double>(drawing->cellSize), &error))
      return fail("render", error.toStdString());
    std::cout << "wrote " << parser.value(own.output).toStdString() << "\n";
    return kExitOk;
  };

  if (parser.positionalArguments().size() == 1) {
    auto marks = options.marks(parser);
    if (!marks)
      return fail("render", marks.error());
    render::OpViewRequest request;
    request.colorBy = drawing->color;
    // A marked subgroup (or lane) colours the picture by subgroups (lanes).
    if (!drawing->colorGiven && marks->subgroup)
      request.colorBy = render::ColorBy::Subgroup;
    request.step = marks->step;
    request.dims = drawing->dims;
    request.slice = drawing->slice;
    int code = kExitOk;
    auto scene = fileOpScene(parser, options,
                             grid ? QString("grid") : parser.value(own.view),
                             request, code);
    if (!scene) {
      std::cerr << "tilescope-cli render: " << scene.error() << "\n";
      return code;
    }
    auto marked = fileOpMark(*marks, *scene);
    if (!marked)
      return fail("render", marked.error());
    return write(std::move(*scene), *marked);
  }
  if (parser.isSet(own.view))
    return fail("--view", "names a view of a root op of a file: give FILE "
                          "--op DISPATCH:OP");

  auto inputs = options.read(parser);
  if (!inputs)
    return fail("render", inputs.error());
  auto mark = markedKey(*inputs, grid);
  if (!mark)
    return fail("render", mark.error());
  render::ColorBy color = drawing->color;
  // A marked subgroup or lane is a colour of the picture.
  if (mark->second != render::ColorBy::Custom) {
    if (drawing->colorGiven && color != mark->second &&
        !(inputs->kind == LayoutInputs::Kind::Mma &&
          color == render::ColorBy::Register))
      return fail("render",
                  mark->second == render::ColorBy::Subgroup
                      ? "marking a subgroup needs --color-by subgroup"
                  : inputs->kind == LayoutInputs::Kind::Mma
                      ? "marking an MMA lane needs --color-by lane or register"
                      : "marking a lane needs --color-by lane");
    if (!drawing->colorGiven)
      color = mark->second;
  }
  auto scene = standaloneScene(&*inputs, color, *drawing, grid);
  if (!scene) {
    std::cerr << "tilescope-cli: " << scene.error() << "\n";
    return kExitFailure;
  }
  // mmaScene marked the lane itself.
  return write(std::move(*scene),
               inputs->kind == LayoutInputs::Kind::Mma ? -1 : mark->first);
}

} // namespace tilescope::cli
