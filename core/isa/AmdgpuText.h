// AMDGPU assembly as the readers of its kernels take it (the LDS banks,
// the live registers): each kernel's statements with their lines and the
// labels among them, what its descriptor and metadata say (workgroup
// shape, wave size, work-item ids, registers allocated), and a statement
// split into mnemonic, operands and modifiers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilescope::isa {

struct AmdgpuStatement {
  size_t line = 0;
  std::string mnemonic; // as written: "v_add_u32_e32"
  std::vector<std::string> operands;
  std::map<std::string, int64_t> modifiers; // "offset" -> 16
  std::set<std::string> flags;              // "offen", "glc"
};
AmdgpuStatement amdgpuStatementOf(const std::string &text, size_t line);

// "v_add_u32_e32" -> "v_add_u32": the encoding suffix dropped.
std::string amdgpuBaseOf(std::string mnemonic);
// The 32-bit registers an operand names: "v12" -> {v12}; "v[4:7]" ->
// v4..v7; "s[2:3]", "a[0:3]"; modifiers ("-v1", "|v2|") stripped; empty
// for anything else (vcc, exec, literals).
std::vector<std::string> amdgpuRegistersOf(std::string operand);

struct AmdgpuKernelText {
  std::string name;
  std::vector<AmdgpuStatement> statements;
  // A label -> the index of the statement after it.
  std::map<std::string, size_t> labels;
  int64_t x = 0, y = 1, z = 1; // reqd_workgroup_size (x 0: not stated)
  int64_t waveSize = 0;
  int workItemIds = 0; // .amdhsa_system_vgpr_workitem_id
  int64_t vgprCount = -1, agprCount = -1, sgprCount = -1; // -1: not stated
  // The descriptor's user SGPRs (-1: not stated) and which workgroup ids
  // the hardware writes after them (.amdhsa_system_sgpr_workgroup_id_x..z).
  int64_t userSgprs = -1;
  bool workgroupIdEnabled[3] = {true, false, false};
  // The SGPRs holding the workgroup's x, y, z ids, those enabled, in order
  // after the user SGPRs ("s8"); empty where the descriptor is not read.
  std::vector<std::string> workgroupIdRegisters() const;
  // Its wave size (64 where not stated) and its workgroup's threads: x * y
  // * z, or one wave where x is not stated.
  int64_t subgroupSize() const { return waveSize > 0 ? waveSize : 64; }
  int64_t threads() const;
};
// The kernels of an AMDGPU assembly text; `arch` gets its .amdgcn_target's
// gfx name ("" where it names none).
// A ds_ access: its address operand, the bytes a lane moves, and the
// offsets of its one or two accesses (a read2/write2's two, in bytes).
struct DsShape {
  std::string address;
  int64_t bytes = 0;
  std::vector<int64_t> offsets;
  bool store = false;
};

// None for a statement that is not a ds_ access of LDS memory.
std::optional<DsShape> dsShapeOf(const AmdgpuStatement &s);

std::vector<AmdgpuKernelText> amdgpuKernelsOf(const std::string &text,
                                              std::string &arch);

} // namespace tilescope::isa
