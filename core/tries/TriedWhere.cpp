#include "core/tries/TriedWhere.h"

#include "core/service/UntrustedFiles.h"

#include <limits>

using nlohmann::json;

namespace tilescope::tries {

void addWhere(const TriedWhere &where, json &details) {
  if (!where.on.empty())
    details["on"] = where.on;
  if (!where.compiledOn.empty())
    details["compiled_on"] = where.compiledOn;
  if (where.compileTask)
    details["compile_task"] = {{"task", where.compileTask->task},
                               {"state", where.compileTask->state},
                               {"node", where.compileTask->node},
                               {"log", where.compileTask->log}};
}

TriedWhere triedWhereFromJson(const json &details) {
  TriedWhere where;
  where.on = service::stringField(details, "on");
  where.compiledOn = service::stringField(details, "compiled_on");
  if (const json *task = service::objectField(details, "compile_task"))
    where.compileTask = CompileTask{service::stringField(*task, "task"),
                                    service::stringField(*task, "state"),
                                    service::stringField(*task, "node"),
                                    service::stringField(*task, "log")};
  return where;
}

json toJson(const DispatchTaken &taken) {
  return {{"dispatch", taken.dispatch},
          {"name", taken.name},
          {"file", taken.file},
          {"command", taken.command}};
}

std::optional<DispatchTaken> dispatchTakenFromJson(const json &taken) {
  if (!taken.is_object())
    return std::nullopt;
  return DispatchTaken{
      service::integerField(taken, "dispatch", 0,
                            std::numeric_limits<long long>::max())
          .value_or(0),
      service::stringField(taken, "name"), service::stringField(taken, "file"),
      service::stringField(taken, "command")};
}

} // namespace tilescope::tries
