// Pictures of a root op: render::opPicture, the function the window's
// Layout tab and `tilescope-cli render FILE --op --view` draw with, written
// as SVG or PNG (and shown inline in Jupyter).
#include "python/src/Bindings.h"

#include "widgets/render/OpPicture.h"
#include "widgets/render/SceneExport.h"
#include "widgets/render/Scenes.h"

#include <QByteArray>
#include <QFile>
#include <QGuiApplication>
#include <QTemporaryDir>

#include <pybind11/stl.h>

#include <cstdio>
#include <cstdlib>

namespace tilescope::python {
namespace {

// Painting text needs a QGuiApplication; a script has none, so the module
// makes one on the offscreen platform (kept for the interpreter's life).
void ensureGuiApplication() {
  if (QCoreApplication::instance())
    return;
  if (!std::getenv("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  static int argc = 1;
  static char name[] = "tilescope";
  static char *argv[] = {name, nullptr};
  // A script run where no session set XDG_RUNTIME_DIR (ssh, cron, a
  // container) would see Qt's warning that it picked /tmp/runtime-USER for
  // a platform nothing is shown on: not the script's business, dropped
  // while the application starts. Every other message goes through.
  static QtMessageHandler previous = nullptr;
  previous = qInstallMessageHandler([](QtMsgType type,
                                       const QMessageLogContext &context,
                                       const QString &text) {
    if (text.startsWith("QStandardPaths: XDG_RUNTIME_DIR not set"))
      return;
    if (previous)
      previous(type, context, text);
    else
      std::fprintf(stderr, "%s\n", qPrintable(text));
  });
  new QGuiApplication(argc, argv);
  qInstallMessageHandler(previous);
}

struct Picture {
  render::GridScene scene;
  std::string note;
  int64_t reductionSteps = 1;

  // PNG, SVG or PDF, by the extension.
  void save(const QString &path, double cellSize, bool dark) const {
    ensureGuiApplication();
    QString error;
    if (!render::writeScene(scene, path,
                            dark ? render::Theme::darkTheme()
                                 : render::Theme::light(),
                            cellSize, &error))
      throw Failure(error.toStdString());
  }

  py::bytes encoded(const std::string &format, double cellSize,
                    bool dark) const {
    QTemporaryDir dir;
    const QString path =
        dir.filePath("picture." + QString::fromStdString(format));
    save(path, cellSize, dark);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
      throw Failure("could not read back " + path.toStdString());
    const QByteArray bytes = file.readAll();
    return py::bytes(bytes.constData(), static_cast<size_t>(bytes.size()));
  }
};

render::ColorBy colorByNamed(const std::string &name) {
  if (auto owner = render::ownerColoringNamed(name))
    return *owner;
  throw Failure("color_by is lane, subgroup or register, not '" + name + "'");
}

Picture picture(const document::Document &document, const py::object &op,
                const std::string &view, const std::string &colorBy,
                int64_t step) {
  const auto kind = render::opViewFromName(QString::fromStdString(view));
  if (!kind)
    throw Failure("view is one of " +
                  render::opViewNames().join(", ").toStdString() + ", not '" +
                  view + "'");
  render::OpViewRequest request;
  request.kind = *kind;
  request.colorBy = colorByNamed(colorBy);
  request.step = step;
  render::OpPicture drawn =
      render::opPicture(document, opRefOf(document, op), request);
  if (drawn.scene.panels.empty())
    throw Failure(view + ": " + drawn.note.toStdString());
  return {std::move(drawn.scene), drawn.note.toStdString(),
          drawn.reductionSteps};
}

} // namespace

void bindPictures(py::module_ &m) {
  py::class_<Picture>(m, "Picture",
                      "One view of a root op, as the window draws it.")
      .def_readonly("note", &Picture::note, "What was drawn, in words.")
      .def_readonly("reduction_steps", &Picture::reductionSteps)
      .def_property_readonly(
          "title", [](const Picture &p) { return p.scene.title.toStdString(); })
      .def(
          "svg",
          [](const Picture &p, double cellSize, bool dark) {
            return p.encoded("svg", cellSize, dark);
          },
          py::arg("cell_size") = 24.0, py::arg("dark") = false)
      .def(
          "png",
          [](const Picture &p, double cellSize, bool dark) {
            return p.encoded("png", cellSize, dark);
          },
          py::arg("cell_size") = 24.0, py::arg("dark") = false)
      .def(
          "save",
          [](const Picture &p, const std::string &path, double cellSize,
             bool dark) {
            p.save(QString::fromStdString(path), cellSize, dark);
          },
          py::arg("path"), py::arg("cell_size") = 24.0, py::arg("dark") = false,
          "Writes PNG, SVG or PDF, by the extension.")
      .def("_repr_svg_",
           [](const Picture &p) {
             return p.encoded("svg", 12.0, false).cast<std::string>();
           })
      .def("_repr_png_",
           [](const Picture &p) { return p.encoded("png", 12.0, false); })
      .def("__repr__", [](const Picture &p) {
        return "<Picture " + p.scene.title.toStdString() + ">";
      });

  m.def("picture", &picture, py::arg("document"), py::arg("op") = "0",
        py::arg("view") = "layouts", py::arg("color_by") = "lane",
        py::arg("step") = 0,
        "A view of a root op (layouts, lane-basis, subgroup-basis, mma, "
        "swizzle, grid), drawn by the function the window and `tilescope-cli "
        "render FILE --op --view` draw with. Raises Error where the view "
        "does not apply, saying why.");
}

} // namespace tilescope::python
