func.func @ok() {
  return
}
// -----
module attributes {x.s = #iree_codegen.xor_shuffle<128, 0>} {}
