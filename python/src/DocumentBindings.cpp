// Documents, their dispatches and root ops, edits with undo and redo, and
// the rules' verdict: the objects `tilescope-cli dispatches`, `set-config`
// and `check` answer from, as Python sees them.
#include "python/src/Bindings.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/edit/RootOpContext.h"
#include "core/export/ConfigJson.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeCommands.h"
#include "core/service/IreeConstraints.h"
#include "core/session/Session.h"
#include "core/tools/IreeInstallation.h"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace tilescope::python {

namespace {

// tilescope-iree-worker: $TILESCOPE_WORKER, else beside this module
// (installed, the wheel), else this build's.
std::filesystem::path workerProgram() {
  if (const char *override = std::getenv("TILESCOPE_WORKER");
      override && *override)
    return override;
  Dl_info self{};
  if (dladdr(reinterpret_cast<void *>(&workerProgram), &self) != 0 &&
      self.dli_fname) {
    const std::filesystem::path beside =
        std::filesystem::path(self.dli_fname).parent_path() /
        "tilescope-iree-worker";
    std::error_code ec;
    if (std::filesystem::is_regular_file(beside, ec))
      return beside;
  }
  return TILESCOPE_WORKER_PATH;
}

std::unique_ptr<workbench::Workbench> &theWorkbench() {
  static std::unique_ptr<workbench::Workbench> made;
  return made;
}

} // namespace

void makeWorkbench() {
  workbench::WorkbenchOptions options;
  for (const py::handle entry : py::module_::import("sys").attr("path"))
    if (py::isinstance<py::str>(entry))
      options.iree.pythonPaths.emplace_back(entry.cast<std::string>());
  options.workerProgram = workerProgram();
  theWorkbench() = std::make_unique<workbench::Workbench>(std::move(options));
}

const workbench::Workbench &bench() { return *theWorkbench(); }

workbench::Workbench
benchFor(const std::optional<std::filesystem::path> &workspace) {
  if (!workspace)
    return bench();
  workbench::WorkbenchOptions options = bench().options();
  options.workspace = std::filesystem::absolute(*workspace);
  return workbench::Workbench(std::move(options));
}

tools::IreeInstallation ireeOrRaise() { return valueOr(bench().iree()); }

// The module parses through tilescope-iree-worker, as the window and the
// CLI do: IREE's parser runs in a child process, so a parser crash is an
// exception here, not the end of the interpreter. One worker is kept.
service::DocumentWorker &worker() {
  static std::mutex mutex;
  static std::unique_ptr<service::DocumentWorker> kept;
  std::lock_guard lock(mutex);
  if (!kept) {
    auto made = bench().worker();
    if (!made)
      throw Failure("no IREE to parse with: " + made.error());
    kept = std::make_unique<service::DocumentWorker>(std::move(*made));
  }
  return *kept;
}

namespace {

DocumentPtr parsed(Result<document::Document> result) {
  if (!result)
    throw ParseFailure(result.error());
  return std::make_shared<document::Document>(std::move(*result));
}

// A root op in words, for repr.
std::string describe(const document::RootOp &op) {
  std::string text = "<RootOp " + op.name + " line " + std::to_string(op.line);
  if (op.space)
    text += " over " + op.space->toString();
  const std::string &config =
      op.loweringConfig.empty() ? op.compilationInfo : op.loweringConfig;
  if (!config.empty())
    text += ": " + config;
  return text + ">";
}

// The cost model's prediction for a root op on its GPU target, as `sweep
// --plan --json` gives each candidate's (estimated: nothing compiled).
py::dict predictionOf(const document::Document &document, edit::OpRef op) {
  const layout::CostPrediction prediction = valueOr(
      layout::predictOpTime(edit::costInputsOf(edit::contextOf(document, op))));
  return toPython(exporting::toJson(prediction));
}

// A tiling level's sizes of a root op's lowering config (None: the level
// is not set).
std::optional<std::vector<int64_t>> tileSizes(const document::RootOp &op,
                                              const std::string &level) {
  if (op.loweringConfig.empty())
    throw Failure(op.name + " has no lowering_config of its own");
  const auto reading = document::loweringReadingOf(op);
  const config::LoweringConfig &config = valueOr(reading->model());
  for (config::TilingLevel known : config::kAllTilingLevels)
    if (level == config::keyOf(known))
      return config.tileSizes(known);
  throw Failure("'" + level +
                "' is not a tiling level (workgroup, reduction, "
                "partial_reduction, thread, subgroup, serial, ...)");
}

// The rules' problems, then (asked) IREE's own pipeline constraints' as
// `check FILE --op` adds them (service::ireeVerdictOn, through iree-opt).
py::list problemsOf(const document::Document &document, edit::OpRef op,
                    bool ireeConstraints) {
  const edit::RuleVerdict verdict =
      edit::ruleVerdict(edit::contextOf(document, op));
  std::vector<config::Problem> problems = verdict.problems;
  if (ireeConstraints) {
    auto iree = ireeOrRaise();
    Result<std::optional<service::OpConstraintVerdict>> asked = Error{""};
    {
      py::gil_scoped_release release;
      asked = service::ireeVerdictOn(iree, worker(), document, op);
    }
    if (!asked)
      throw Failure("IREE's pipeline constraints could not be asked: " +
                    asked.error());
    if (*asked)
      for (config::Problem &p : service::problemsOf(**asked))
        problems.push_back(std::move(p));
  }
  return toPython(exporting::toJson(problems));
}

struct Editor {
  // The session every front end drives: each edit's attribute is read by
  // IREE in the parse worker, as `set-config` and the window read it; what
  // IREE refuses raises at set().
  explicit Editor(const document::Document &document)
      : session([] {
          // The workbench's services, with Python's lock let go while IREE
          // answers.
          session::SessionServices services = bench().sessionServices();
          services.printAttribute =
              [print = services.printAttribute](const std::string &text) {
                py::gil_scoped_release release;
                return print(text);
              };
          services.parseText =
              [parse = services.parseText](const std::string &text,
                                           const std::string &name) {
                py::gil_scoped_release release;
                return parse(text, name);
              };
          return services;
        }()) {
    session.open(document);
  }
  session::Session session;
  const edit::EditableDocument &model() const { return session.model(); }

  DocumentPtr readBack() const {
    auto reparsed = session.readBack();
    if (!reparsed)
      throw EditFailure("", "IREE does not read the edited text back as "
                            "edited: " +
                                reparsed.error());
    return std::make_shared<document::Document>(std::move(*reparsed));
  }

  py::dict set(const py::object &op, const std::string &field,
               const std::optional<std::string> &value) {
    const edit::OpRef ref = opRefOf(model().document(), op);
    session::SetOutcome outcome = session.set(ref, field, value);
    if (!outcome)
      throw EditFailure(field, outcome.refusal);
    return editDict(*outcome.edit);
  }

  py::dict editDict(const edit::Edit &e) const {
    py::dict out;
    out["op"] = std::to_string(e.op.dispatch) + ":" + std::to_string(e.op.op);
    out["field"] = e.field.name();
    out["before"] = e.oldValue;
    out["after"] = e.newValue;
    out["line"] = e.line;
    return out;
  }
};

} // namespace

namespace {

// An index given as a Python int, in words; anything else, or one past a
// 64-bit integer, is no index.
std::optional<std::string> indexText(const py::handle &value) {
  if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value))
    return std::nullopt;
  int overflow = 0;
  const long long index = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0 || (index == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return std::nullopt;
  }
  return std::to_string(index);
}

} // namespace

edit::OpRef opRefOf(const document::Document &document, const py::object &op) {
  std::string spec;
  if (py::isinstance<py::str>(op)) {
    spec = op.cast<std::string>();
  } else if (auto index = indexText(op)) {
    spec = *index + ":0";
  } else if (py::isinstance<py::tuple>(op) && py::len(op) == 2) {
    const py::tuple pair = op.cast<py::tuple>();
    auto dispatch = indexText(pair[0]);
    auto rootOp = indexText(pair[1]);
    if (!dispatch || !rootOp)
      throw Failure("an op's (dispatch, op) pair holds two indices");
    spec = *dispatch + ":" + *rootOp;
  } else
    throw Failure("an op is \"DISPATCH:OP\", a dispatch index or a "
                  "(dispatch, op) pair");
  auto ref = edit::findOp(document, spec);
  if (!ref)
    throw Failure("op " + spec + ": " + ref.error());
  return *ref;
}

py::object toPython(const nlohmann::json &value) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
  case Type::boolean:
    return py::bool_(value.get<bool>());
  case Type::number_integer:
    return py::int_(value.get<int64_t>());
  case Type::number_unsigned:
    return py::int_(value.get<uint64_t>());
  case Type::number_float: {
    // As JSON writes them: a NaN or an infinity is no value.
    const double number = value.get<double>();
    return std::isfinite(number) ? py::object(py::float_(number)) : py::none();
  }
  case Type::string: {
    // User text need not be UTF-8: invalid bytes become U+FFFD, as in
    // exporting::jsonText.
    const std::string &text = value.get_ref<const std::string &>();
    PyObject *decoded = PyUnicode_DecodeUTF8(
        text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
    if (!decoded)
      throw py::error_already_set();
    return py::reinterpret_steal<py::str>(decoded);
  }
  case Type::array: {
    py::list list;
    for (const nlohmann::json &element : value)
      list.append(toPython(element));
    return list;
  }
  case Type::object: {
    py::dict dict;
    for (auto it = value.begin(); it != value.end(); ++it)
      dict[toPython(nlohmann::json(it.key()))] = toPython(it.value());
    return dict;
  }
  default: // null, and what JSON text has no form for
    return py::none();
  }
}

py::object asResult(const char *className, const nlohmann::json &value) {
  // Imported per call (a lookup in sys.modules): a py::object kept in a
  // static would be released after the interpreter is gone.
  return py::module_::import("tilescope.results")
      .attr(className)
      .attr("from_dict")(toPython(value));
}

namespace {

void bindRootOp(py::module_ &m) {
  py::class_<document::RootOp>(m, "RootOp",
                               "A root op: what IREE configured, as it "
                               "printed it, and the loops it computes.")
      .def_readonly("name", &document::RootOp::name)
      .def_readonly("line", &document::RootOp::line)
      .def_readonly("column", &document::RootOp::column)
      .def_readonly("lowering_config", &document::RootOp::loweringConfig)
      .def_readonly("compilation_info", &document::RootOp::compilationInfo)
      .def_readonly("operand_types", &document::RootOp::operandTypes)
      .def_readonly("result_types", &document::RootOp::resultTypes)
      .def_property_readonly(
          "kind",
          [](const document::RootOp &op) { return config::toString(op.kind); })
      .def_property_readonly("iteration_space",
                             [](const document::RootOp &op) {
                               return op.space ? std::optional<std::string>(
                                                     op.space->toString())
                                               : std::nullopt;
                             })
      .def_property_readonly(
          "config",
          [](const document::RootOp &op)
              -> std::optional<config::LoweringConfig> {
            if (op.loweringConfig.rfind("#iree_gpu.", 0) != 0)
              return std::nullopt;
            return valueOr(document::loweringReadingOf(op)->model());
          },
          "The op's own GPU lowering_config as a LoweringConfig (None "
          "without one; a CPU config stays text, in lowering_config).")
      .def("tile_sizes", &tileSizes, py::arg("level"),
           "A tiling level's sizes (\"workgroup\", \"reduction\", ...) of "
           "the op's lowering config; None where it sets none.")
      .def("__repr__", &describe);
}

void bindDispatch(py::module_ &m) {
  py::class_<document::Dispatch>(m, "Dispatch",
                                 "A function that becomes a kernel, with its "
                                 "root ops, target and translation_info.")
      .def_readonly("name", &document::Dispatch::name)
      .def_readonly("executable", &document::Dispatch::executable)
      .def_readonly("target", &document::Dispatch::target)
      .def_readonly("translation_info", &document::Dispatch::translationInfo)
      .def_property_readonly(
          "translation",
          [](const document::Dispatch &d)
              -> std::optional<config::TranslationInfo> {
            if (d.translationInfo.empty())
              return std::nullopt;
            return valueOr(document::translationReadingOf(d)->model());
          },
          "The translation_info as a TranslationInfo (None without one).")
      .def_readonly("line", &document::Dispatch::line)
      .def_readonly("root_ops", &document::Dispatch::rootOps)
      .def("__repr__", [](const document::Dispatch &d) {
        return "<Dispatch " + d.name + " line " + std::to_string(d.line) +
               ", " + std::to_string(d.rootOps.size()) + " root op" +
               (d.rootOps.size() == 1 ? "" : "s") + ">";
      });
}

void bindDocument(py::module_ &m) {
  py::class_<document::Document, DocumentPtr>(
      m, "Document",
      "An IREE MLIR file as IREE parsed it: its dispatches and their root "
      "ops. Immutable; edit it with an Editor.")
      .def_property_readonly("path",
                             [](const document::Document &d) { return d.path; })
      .def_readonly("text", &document::Document::text)
      .def_readonly("dispatches", &document::Document::dispatches)
      .def(
          "op",
          [](const document::Document &d, const py::object &op) {
            const edit::OpRef ref = opRefOf(d, op);
            return d.dispatches[ref.dispatch].rootOps[ref.op];
          },
          py::arg("op"), "The root op \"D:O\" (D an index or a dispatch name).")
      .def(
          "ops",
          [](const document::Document &d) {
            py::list ops;
            for (size_t i = 0; i < d.dispatches.size(); ++i)
              for (size_t j = 0; j < d.dispatches[i].rootOps.size(); ++j)
                ops.append(
                    py::make_tuple(std::to_string(i) + ":" + std::to_string(j),
                                   d.dispatches[i].rootOps[j]));
            return ops;
          },
          "Every root op as (\"D:O\", RootOp).")
      .def(
          "check",
          [](const document::Document &d, const py::object &op,
             bool ireeConstraints) {
            return problemsOf(d, opRefOf(d, op), ireeConstraints);
          },
          py::arg("op") = "0", py::arg("iree_constraints") = false,
          "The rules' verdict on a root op, as `tilescope-cli check --json "
          "--no-iree-constraints` gives it: a dict per problem (severity, "
          "field, message, rule, iree, source), errors and warnings in rule "
          "order. iree_constraints=True adds IREE's own verdict (its "
          "pipeline constraints for the op, checked by the pinned iree-opt), "
          "as `check FILE --op --json` does.")
      .def(
          "predict",
          [](const document::Document &d, const py::object &op) {
            return predictionOf(d, opRefOf(d, op));
          },
          py::arg("op") = "0",
          "The cost model's prediction of the op's kernel time on its GPU "
          "target (us, bound_by, terms, summary, ...), as `sweep "
          "--plan` predicts a candidate. Raises Error where there is none "
          "(a CPU target, no figures for the GPU).")
      .def("__repr__", [](const document::Document &d) {
        return "<Document " + d.path.string() + ": " +
               std::to_string(d.dispatches.size()) + " dispatch" +
               (d.dispatches.size() == 1 ? "" : "es") + ">";
      });
}

void bindReaders(py::module_ &m) {
  m.def(
      "open",
      [](const std::filesystem::path &path) {
        py::gil_scoped_release release;
        return parsed(worker().parseFile(path));
      },
      py::arg("path"),
      "Opens an IREE MLIR file (a dispatch benchmark, a dump, a program, a "
      "`// -----` file), parsed by IREE in the worker process. Raises "
      "ParseError with IREE's diagnostics.");
  m.def(
      "parse",
      [](const std::string &text, const std::string &name) {
        py::gil_scoped_release release;
        return parsed(worker().parseText(text, name));
      },
      py::arg("text"), py::arg("name") = "<text>",
      "Parses MLIR text as open() parses a file.");

  m.def(
      "configure",
      [](const std::filesystem::path &source, const std::string &target,
         std::optional<std::filesystem::path> output, double timeout,
         const py::object &cancel) {
        service::ConfigureRequest request;
        request.source = source;
        if (!target.empty())
          request.target = valueOr(service::compileTarget(target));
        request.output =
            output ? *output
                   : std::filesystem::path(
                         service::configuredFileName(source, request.target));
        request.timeout = timeoutOf(timeout);
        request.cancel = cancelFlagOf(cancel);
        auto iree = bench().iree();
        if (!iree)
          throw Failure(iree.error());
        py::gil_scoped_release release;
        auto configured = service::configureProgram(*iree, worker(), request);
        if (!configured)
          throw Failure(configured.error().starts_with(source.string())
                            ? configured.error()
                            : source.string() + ": " + configured.error());
        return std::make_shared<document::Document>(
            std::move(configured->document));
      },
      py::arg("source"), py::arg("target") = "", py::arg("output") = py::none(),
      py::arg("timeout") = 600.0, py::arg("cancel") = py::none(),
      "Configures a program (linalg, torch or ONNX-imported MLIR) for "
      "`target` (gfx942, sm_90, llvm-cpu; \"\": the devices it names) "
      "with IREE, as `tilescope-cli configure` does: the configured "
      "program is written to `output` (default: SOURCE's name with "
      ".TARGET.configured.mlir, in the current folder) and returned as a "
      "Document, each root op linked to the source op it came from.");
}

void bindEditor(py::module_ &m) {
  py::class_<Editor>(m, "Editor",
                     "Edits of a document's configs with undo and redo: the "
                     "edit model `set-config` and the window use.")
      .def(py::init<const document::Document &>(), py::arg("document"))
      .def("set", &Editor::set, py::arg("op"), py::arg("field"),
           py::arg("value"),
           "Sets FIELD (workgroup, lane_basis, translation_info.KEY, "
           "workgroup_size, lowering_config, ...) of a root op to VALUE "
           "(MLIR attribute text; None removes it). Raises EditError naming "
           "the field when the edit cannot be made.")
      .def(
          "unset",
          [](Editor &e, const py::object &op, const std::string &field) {
            return e.set(op, field, std::nullopt);
          },
          py::arg("op"), py::arg("field"))
      .def("undo", [](Editor &e) { return e.session.undo(); })
      .def("redo", [](Editor &e) { return e.session.redo(); })
      .def_property_readonly(
          "can_undo", [](const Editor &e) { return e.model().canUndo(); })
      .def_property_readonly(
          "can_redo", [](const Editor &e) { return e.model().canRedo(); })
      .def_property_readonly(
          "modified", [](const Editor &e) { return e.model().modified(); })
      .def_property_readonly(
          "edits",
          [](const Editor &e) {
            py::list out;
            for (const edit::Edit &x : e.model().edits())
              out.append(e.editDict(x));
            return out;
          },
          "The edits made, oldest first, each a dict (op, field, before, "
          "after, line).")
      .def_property_readonly("text",
                             [](const Editor &e) { return e.model().text(); })
      .def_property_readonly(
          "document",
          [](const Editor &e) {
            return std::make_shared<document::Document>(e.model().document());
          },
          "The document as edited (a snapshot).")
      .def(
          "diff",
          [](const Editor &e, int context) { return e.model().diff(context); },
          py::arg("context") = 3,
          "The unified diff against the file as opened.")
      .def(
          "check",
          [](const Editor &e, const py::object &op, bool ireeConstraints) {
            return problemsOf(e.model().document(),
                              opRefOf(e.model().document(), op),
                              ireeConstraints);
          },
          py::arg("op") = "0", py::arg("iree_constraints") = false,
          "Document.check on the edited document.")
      .def(
          "predict",
          [](const Editor &e, const py::object &op) {
            return predictionOf(e.model().document(),
                                opRefOf(e.model().document(), op));
          },
          py::arg("op") = "0", "Document.predict on the edited document.")
      .def("read_back", &Editor::readBack,
           "IREE's own parser reads the edited text (in the worker) and "
           "must find what the editor says: the same dispatches and root "
           "ops with the same configs. Raises EditError naming the first "
           "difference; returns the document as IREE read it.")
      .def(
          "save",
          [](Editor &e, const std::filesystem::path &path) {
            const session::SaveOutcome saved = valueOr(e.session.save(path));
            if (!saved.notReadBack.empty())
              throw EditFailure("", "IREE does not read the edited text back "
                                    "as edited: " +
                                        saved.notReadBack);
          },
          py::arg("path"),
          "Writes the edited text (atomically) once IREE reads it back as "
          "edited (read_back), as `tilescope-cli set-config` writes; "
          "nothing is written otherwise.");
}

} // namespace

void bindDocuments(py::module_ &m) {
  bindRootOp(m);
  bindDispatch(m);
  bindDocument(m);
  bindReaders(m);
  bindEditor(m);
}

} // namespace tilescope::python
