module {
  func.func @resnet50_bottleneck(%arg0: !torch.vtensor<[1,256,56,56],f32>, %arg1: !torch.vtensor<[64,256,1,1],f32>, %arg2: !torch.vtensor<[64],f32>, %arg3: !torch.vtensor<[64,64,3,3],f32>, %arg4: !torch.vtensor<[64],f32>, %arg5: !torch.vtensor<[256,64,1,1],f32>, %arg6: !torch.vtensor<[256],f32>, %arg7: !torch.vtensor<[1000,256],f32>, %arg8: !torch.vtensor<[1000],f32>) -> !torch.vtensor<[1,1000],f32> attributes {torch.onnx_meta.ir_version = 10 : si64, torch.onnx_meta.opset_version = 17 : si64, torch.onnx_meta.producer_name = "tilescope", torch.onnx_meta.producer_version = ""} {
    %none = torch.constant.none
    %0 = torch.operator "onnx.Conv"(%arg0, %arg1, %arg2) : (!torch.vtensor<[1,256,56,56],f32>, !torch.vtensor<[64,256,1,1],f32>, !torch.vtensor<[64],f32>) -> !torch.vtensor<[1,64,56,56],f32> 
    %1 = torch.operator "onnx.Relu"(%0) : (!torch.vtensor<[1,64,56,56],f32>) -> !torch.vtensor<[1,64,56,56],f32> 
    %2 = torch.operator "onnx.Conv"(%1, %arg3, %arg4) {torch.onnx.pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64]} : (!torch.vtensor<[1,64,56,56],f32>, !torch.vtensor<[64,64,3,3],f32>, !torch.vtensor<[64],f32>) -> !torch.vtensor<[1,64,56,56],f32> 
    %3 = torch.operator "onnx.Relu"(%2) : (!torch.vtensor<[1,64,56,56],f32>) -> !torch.vtensor<[1,64,56,56],f32> 
    %4 = torch.operator "onnx.Conv"(%3, %arg5, %arg6) : (!torch.vtensor<[1,64,56,56],f32>, !torch.vtensor<[256,64,1,1],f32>, !torch.vtensor<[256],f32>) -> !torch.vtensor<[1,256,56,56],f32> 
    %5 = torch.operator "onnx.Add"(%4, %arg0) : (!torch.vtensor<[1,256,56,56],f32>, !torch.vtensor<[1,256,56,56],f32>) -> !torch.vtensor<[1,256,56,56],f32> 
    %6 = torch.operator "onnx.Relu"(%5) : (!torch.vtensor<[1,256,56,56],f32>) -> !torch.vtensor<[1,256,56,56],f32> 
    %7 = torch.operator "onnx.GlobalAveragePool"(%6) : (!torch.vtensor<[1,256,56,56],f32>) -> !torch.vtensor<[1,256,1,1],f32> 
    %8 = torch.operator "onnx.Flatten"(%7) : (!torch.vtensor<[1,256,1,1],f32>) -> !torch.vtensor<[1,256],f32> 
    %9 = torch.operator "onnx.Gemm"(%8, %arg7, %arg8) {torch.onnx.transB = 1 : si64} : (!torch.vtensor<[1,256],f32>, !torch.vtensor<[1000,256],f32>, !torch.vtensor<[1000],f32>) -> !torch.vtensor<[1,1000],f32> 
    %10 = torch.operator "onnx.Softmax"(%9) {torch.onnx.axis = -1 : si64} : (!torch.vtensor<[1,1000],f32>) -> !torch.vtensor<[1,1000],f32> 
    return %10 : !torch.vtensor<[1,1000],f32>
  }
}

