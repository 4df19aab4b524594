// OpenVINO custom layers (SimpleGPU) on the opencl backend: BackendOptions::custom_kernels may
// hold nnbridge::config::openvino_custom::CustomLayerSet objects (issue 7). Only this file's
// source knows that library, through its public header.
#pragma once

#include <string>

#include "nnbridge/exec.h"
#include "ops.h"

namespace nnbridge::gpu {

#ifdef NNBRIDGE_HAVE_OPENVINO_CUSTOM
/// True when a set in `options` has a custom layer for `n`: its op is the layer's name N, or it
/// is an Arm NN StandIn layer (`armnn.StandIn`) named N, or a VkGraph operator `vk.N`. The
/// first set holding N wins. A custom layer takes precedence over the built-in kernel (as in
/// OpenVINO's plugins).
bool has_custom_layer(const BackendOptions& options, const Node& n);
/// The launch of node `i` of `work` (its output types resolved) by its custom layer.
/// Throws Error(Invalid) for bindings the node cannot satisfy (ports, Data names, work sizes,
/// argument count), Error(Unsupported) for a tensor of rank above 4, Error(Io) for an
/// unreadable source, Error(Backend) with the build log for a program that does not build.
Launch custom_layer_launch(const BackendOptions& options, const Graph& work, std::size_t i, const Device& dev,
                           const std::string& label);
#else
inline bool has_custom_layer(const BackendOptions&, const Node&) { return false; }
inline Launch custom_layer_launch(const BackendOptions&, const Graph&, std::size_t, const Device&, const std::string&) { return {}; }
#endif

}  // namespace nnbridge::gpu
