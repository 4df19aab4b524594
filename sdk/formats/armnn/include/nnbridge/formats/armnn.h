// The Arm NN serialized network format (.armnn, FlatBuffers, ArmnnSchema.fbs).
#pragma once

#include "nnbridge/format.h"

namespace nnbridge::formats::armnn {

/// The handler registered as format "armnn" (extension .armnn).
///
/// Reader options (LoadOptions::options):
///   armnn.layout = released (default) | seed   -- the seed's pre-release union order is read
///                                                only when asked for, never guessed.
/// Writer options (SaveOptions::options):
///   armnn.bindingIdsScheme, armnn.weightsLayoutScheme, armnn.constantTensorsAsInputs = 0|1
///   armnn.fileIdentifier = 0|1
/// Defaults: keep the scheme the graph was read with; for new graphs, what both Arm NN 20.08
/// and current Arm NN load.
FormatHandler format_handler();

}  // namespace nnbridge::formats::armnn
