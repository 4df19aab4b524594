// Format-neutral rewrites of a Graph into more explicit but equivalent forms, for writers whose
// format needs them (a format without ONNX's defaults, auto_pad or shape inputs). Each changes
// only the nodes and values it names, keeps every other field as it is, and says in its
// return value how many it changed; none of them changes what the graph computes.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge {

/// Fills what the file left unknown of each value's type (dtype Undefined, unknown rank,
/// dims -1) from op-schema shape inference (op_schema.h), nodes in topological order, as ONNX
/// shape inference does for a model without value_info (PyTorch's exports). Declared parts are
/// kept; quantization is never inferred. A node without a schema or whose inference fails
/// leaves its outputs as they are (the checker reports it). A cyclic graph is left unchanged.
/// Returns the number of values whose type changed.
std::size_t infer_missing_types(Graph& g);

/// Transpose without `perm` gets the perm ONNX Transpose-13 means, the dims reversed
/// ([r-1, ..., 0]), where its input's rank is known. Returns the number of nodes changed.
std::size_t explicit_transpose_perm(Graph& g);

/// Conv, MaxPool, AveragePool and LpPool with auto_pad SAME_UPPER, SAME_LOWER or VALID get
/// auto_pad NOTSET and the `pads` ONNX Conv-11 / MaxPool-12 define, where the input's spatial
/// dims are known: per spatial dim, total = max(0, (ceil(in / stride) - 1) * stride +
/// dilation * (kernel - 1) + 1 - in), SAME_UPPER puts total / 2 at the beginning (the extra one
/// at the end), SAME_LOWER the extra one at the beginning; VALID is all 0. Returns the number
/// of nodes changed (ConvTranspose keeps its auto_pad: its rule depends on output_shape).
std::size_t explicit_pads(Graph& g);

/// Reshape whose second input is a constant int64 tensor gets the `shape` attribute instead
/// (Reshape-1's form, which the canonical op also takes): the output's shape when it is fully
/// known, else the constant with its 0s resolved from the input shape (ONNX Reshape-14 with
/// allowzero 0). The constant is removed from the graph when nothing else reads it (as in
/// operands_as_attributes). Returns the number of nodes changed.
std::size_t reshape_shape_as_attribute(Graph& g);

/// An input of a canonical op that format descriptors hold as a field: what ONNX opset 13+ made
/// inputs out of older attributes (Slice-10's starts, Pad-2's pads, Clip-6's min, ...). The
/// descriptor form names it by the older attribute (`attr`); the canonical op takes it as input
/// `input`, named `name` as in ONNX's operator.
struct OperandAttribute {
  enum class Kind {
    Ints,    ///< int32/int64 1-D <-> a list of ints (written as int64 [n])
    Scalar,  ///< one element <-> a float (written as a scalar of X's type, see attributes_as_operands)
    Floats,  ///< float32/float64 1-D <-> a list of floats (written as float32 [n])
  };
  const char* op;
  std::size_t input;
  const char* attr;
  Kind kind;
  const char* name;
};
/// Every operand the two rewrites below move, in op and input order: Tile repeats (1); Slice
/// starts (1), ends (2), axes (3), steps (4); Pad pads (1), value = ONNX constant_value (2);
/// Split split (1); Squeeze axes (1); Unsqueeze axes (1); Clip min (1), max (2); ReduceSum axes
/// (1); Resize roi (1), scales (2), sizes (3).
const std::vector<OperandAttribute>& operand_attributes();

/// Readers of formats whose descriptors hold these operands as fields (Arm NN, VkGraph): each
/// such attribute of a node becomes a constant input, int64 [n] for Ints, float32 [n] for Floats,
/// and for Scalar a scalar of X's dtype where X (input 0) is float32 or float64 and holds the
/// value exactly, else float32 when that holds it exactly, else float64 (float32 for a quantized
/// X: the bound or fill value is a real number). The constants are named "<node>.<name>" (the
/// first output's name for a node without one; made unique with "_<k>") and appended to the
/// values in node order; an optional input left out in between is kNoValue. Tile keeps its
/// attribute form (the canonical op takes it). Returns the number of nodes changed.
std::size_t attributes_as_operands(Graph& g);

/// Writers of those formats, the other way: every operand input that is a constant of its
/// kind (Ints: int32/int64; Scalar: a one-element float, integer or bool tensor; Floats:
/// float32/float64) becomes the attribute, and the node keeps input 0 alone; a node with an
/// operand that is not such a constant is left as it is (require_constant_operands refuses it).
/// An empty Resize scales (the placeholder Resize-11 files write beside sizes) is dropped, and
/// scales whose products with X's known dims are whole become those `sizes` (out / in is then
/// the scale: the same sampling, and descriptors hold sizes). The
/// result is the descriptor form the format's mapping reads, which the canonical schemas no
/// longer accept: run it last, right before mapping. Constants that nothing reads any more
/// are removed from the graph (value ids after them shift). Returns the number of nodes changed.
std::size_t operands_as_attributes(Graph& g);

/// Whether node `n` has an operand input (operand_attributes()) that operands_as_attributes
/// would move.
bool has_operand_inputs(const Node& n);

/// Throws Error(Unsupported) naming the first node (its name, op, input and the input's value)
/// that still has an operand input after operands_as_attributes, or a Reshape whose shape is still
/// an input after reshape_shape_as_attribute (a shape computed at run time): one `format` (e.g.
/// "Arm NN") cannot write, since its descriptor holds the value itself.
void require_constant_operands(const Graph& g, std::string_view format);

/// Dropout nodes that compute their input (ONNX Dropout-13: output = data when training_mode,
/// input 2, is false or absent, or when ratio, input 1, is 0, since the kept values are scaled by
/// 1 / (1 - ratio)) become Identity, where both inputs are absent or constants and nothing reads
/// the mask (output 1). PyTorch exports a module whose dropout has p = 0 (torchvision's Swin
/// Transformer attention) with training_mode true. Run drop_identity after it. Returns the
/// number of nodes changed.
std::size_t inference_dropout_as_identity(Graph& g);

/// Identity nodes (ONNX Identity-16: the output is the input) without attributes in
/// `keep_prefix` (the target format's own fields, e.g. "armnn." for the node an Arm NN Output
/// layer reads as; empty: none kept) are removed:
/// readers of the output read the input instead. When the output is a graph output, the
/// input's producer writes the output value itself (so the graph output keeps its name),
/// provided the input is produced by a node, is not itself a graph output and has the same
/// type; otherwise the Identity stays. Returns the number of nodes removed.
std::size_t drop_identity(Graph& g, std::string_view keep_prefix = {});

/// GlobalAveragePool / GlobalMaxPool (ONNX -1: the mean / max over every spatial dim) become
/// AveragePool / MaxPool with kernel_shape = the spatial dims, strides 1 and no padding (one
/// window covering the plane: the same mean and max), where the input's spatial dims are
/// known. Returns the number of nodes changed.
std::size_t global_pools_as_windows(Graph& g);

/// Flatten, Squeeze and Unsqueeze (ONNX -13: the same elements in a new shape) become Reshape
/// with the `shape` attribute set to the output's shape, where that shape is fully known (their
/// axes inputs are dropped from the node, and constants nothing else reads from the graph),
/// except nodes with attributes in `keep_prefix` (as drop_identity). Returns the number of nodes
/// changed.
std::size_t shape_ops_as_reshape(Graph& g, std::string_view keep_prefix = {});

/// Conv, MaxPool and AveragePool with count_include_pad 1 whose `pads` differ between the
/// beginning and the end of a spatial dim (TensorFlow-style SAME, which ATen's symmetric
/// `padding` cannot say) get an explicit Pad in front (mode constant; value 0 for Conv and
/// AveragePool, -inf for MaxPool, the values a padded window sees in ONNX) and no pads of their
/// own: the same windows over the same values (its pads and value are constant inputs, as
/// the canonical Pad takes them). Float inputs of known rank only; AveragePool
/// with count_include_pad 0 is left as it is (its divisor depends on the padding). Returns the
/// number of nodes changed.
std::size_t asymmetric_pads_as_pad(Graph& g);

// ---- Patterns exporters write, as forms the formats have (rewrite_patterns.cc) ----------------

/// Shape arithmetic and the small constants built from it folded to constants, as exporters emit
/// them around Reshape, Slice and Pad (torch.onnx's `Shape -> Gather -> Div -> Unsqueeze -> Concat`
/// chains; the shifted-window attention mask of a Swin Transformer, built by ConstantOfShape,
/// ScatterND, Sub, Equal and Where). Folded, in topological order so that a chain folds whole:
/// Shape / Size of a value whose shape is fully known (ONNX Shape-15 with start / end), and, when
/// every input is a constant of int64, int32, bool, float32 or float64 of at most 2^18 elements
/// (output too): Add / Sub / Mul / Div (integer Div truncates toward zero, ONNX Div-14; float32
/// in float32 arithmetic, round to nearest, as a backend computes it), Mod on integers (the
/// divisor's sign, or with fmod 1 the dividend's, ONNX Mod-13), Equal, Not, Where (numpy
/// broadcasting for all of these), Gather on any axis (ONNX Gather-13), Concat on any axis,
/// Slice with any axes and steps (ONNX Slice-13 clamping), Transpose (ONNX Transpose-13; no perm
/// reverses the dims), Cast between those dtypes (ONNX Cast-13; float to integer truncates toward
/// zero), ConstantOfShape (ONNX ConstantOfShape-9), Range (ONNX Range-11; floats by repeated
/// addition, as its function body states), ScatterND with reduction none (ONNX ScatterND-13; a
/// negative index counts from the back, as ONNX Runtime reads it), Unsqueeze / Squeeze / Flatten /
/// Reshape (shape from the output's known type) and Identity of a non-float constant; and Expand
/// of a constant of any dtype (ONNX Expand-13, numpy broadcasting; output at most 1 MiB, e.g. a
/// class token). What ONNX leaves undefined is left unfolded: integer overflow, a division by 0,
/// a Cast of a value the target cannot hold, two ScatterND indices naming one slice. Each folded
/// node's output becomes a constant and the node is removed; constants nothing reads any more
/// are removed (value ids shift). Graph outputs are never folded. Every node gets its missing
/// output types inferred as the pass reaches it (as infer_missing_types would), so a stage whose
/// shape depends on the stage before (a Swin Transformer block padding to its window) folds in
/// the same pass. Run infer_missing_types first. Returns the number of nodes folded.
std::size_t fold_shape_arithmetic(Graph& g);

/// HardSigmoid in forms formats have (ONNX HardSigmoid-6: max(0, min(1, alpha * X + beta))):
/// `Mul(X, HardSigmoid(X))` with alpha 1/6 and beta 1/2 (PyTorch's export of Hardswish before
/// opset 14) becomes HardSwish(X) (ONNX HardSwish-14: X * max(0, min(1, X / 6 + 1 / 2)), the same
/// function), where the HardSigmoid has no other reader; every other float32 HardSigmoid becomes
/// Affine (alpha * X + beta) followed by Clip with constant bounds 0 and 1. Returns the number
/// of HardSigmoid nodes rewritten.
std::size_t hard_sigmoid_as_activations(Graph& g);

/// Conv / ConvTranspose whose constant weights are in an Arm NN layout (`kernel_layout`: OHWI,
/// 1HWO or MIHW depthwise for Conv; OHWI or OIHW for ConvTranspose) get new constants in ONNX's
/// layout (Conv OIHW with depthwise as [C*M, 1, H, W], ONNX Conv-11; ConvTranspose IOHW, ONNX
/// ConvTranspose-11) and no kernel_layout; the old constants are removed when nothing else reads
/// them. Returns the number of nodes changed.
std::size_t weights_as_oihw(Graph& g);

/// The other way, for formats whose transposed convolution takes [O, I, H, W] weights (Arm NN
/// TransposeConvolution2d, NCHW): an NCHW ConvTranspose with group 1, no kernel_layout (ONNX
/// ConvTranspose-11's [C_in, C_out, kH, kW]) and constant weights gets them permuted to
/// [C_out, C_in, kH, kW] with kernel_layout OIHW (a per-axis quantization axis moves with its
/// dim). Returns the number of nodes changed.
std::size_t conv_transpose_weights_as_oihw(Graph& g);

/// NCHW Conv with 1 < group < C (a grouped, not depthwise, convolution: ONNX Conv-11 splits the
/// channels of X, W and B into `group` equal parts and concatenates the results) becomes that:
/// Split of X on axis 1 (equal parts), one Conv with group 1 per part with its slice of the
/// constant W (and B), and Concat on axis 1. For formats whose convolution has no groups (Arm NN
/// Convolution2d). Float, fully known types and constant weights only. Returns the number of
/// Conv nodes split.
std::size_t grouped_conv_as_split(Graph& g);

/// PyTorch's export of GELU (approximate 'none') before ONNX had the op, `Mul(Mul(X, Add(Erf(Div(X,
/// sqrt 2)), 1)), 0.5)` with scalar constants (either operand order), becomes one Gelu node
/// (ONNX Gelu-20: 0.5 * X * (1 + erf(X / sqrt 2))), where the intermediate values have no other
/// reader. Returns the number of Gelu nodes made.
std::size_t erf_gelu_as_gelu(Graph& g);

/// Pow whose exponent is the constant scalar 2 becomes Mul(X, X) (the same value: IEEE 754
/// x * x is the correctly rounded square, as pow(x, 2) is). Returns the number of nodes changed.
std::size_t square_pow_as_mul(Graph& g);

/// MatMul of A (rank >= 2, fully known shape) by a constant 2-D B (numpy.matmul, ONNX MatMul-13)
/// becomes Gemm (transA 0, transB 0, alpha 1, beta 1, no C; ONNX Gemm-13) of A reshaped to
/// [M, K] (M the product of A's leading dims), and a Reshape of the [M, N] product back to the
/// output's shape: the form of a fully connected layer (Arm NN FullyConnected). Returns the
/// number of MatMul nodes changed.
std::size_t matmul_as_gemm(Graph& g);

/// LayerNormalization (ONNX -17: (X - mean) / sqrt(var + epsilon) * Scale + B over dims
/// [axis, rank), var the biased variance) of a float32 X of known rank, whose Mean / InvStdDev
/// outputs nothing reads, becomes ReduceMean, Sub, Mul (the square), ReduceMean, Add epsilon,
/// Sqrt, Div, Mul by Scale and Add B: the ops PyTorch's export before opset 17 writes, for formats
/// without the layer (Arm NN). Returns the number of nodes decomposed.
std::size_t layer_norm_decomposed(Graph& g);

/// A node with `data_layout` NHWC (Arm NN's default layout; a TfLite-parser network holds nothing
/// else) of a op whose NCHW form is the ONNX operator: Conv, ConvTranspose, MaxPool, AveragePool,
/// LpPool, GlobalAveragePool, GlobalMaxPool, BatchNormalization, InstanceNormalization, LRN,
/// DepthToSpace, SpaceToDepth, Resize, with a rank-4 input and one rank-4 output of known shapes,
/// becomes Transpose(perm 0,3,1,2) -> the op with `data_layout` NCHW -> Transpose(perm 0,2,3,1),
/// for formats whose tensors are NCHW (ONNX). The op's other inputs (weights, per-channel
/// parameters) are unchanged: their layout is given by `kernel_layout` (weights_as_oihw) or is
/// per channel; Resize's constant scales / sizes, which list X's dims, are permuted to NCHW
/// order (a Resize with a non-empty roi or non-constant scales / sizes is left).
/// Returns the number of nodes changed.
std::size_t nhwc_as_nchw(Graph& g);

/// Gemm whose A has rank > 2 (Arm NN FullyConnected, which flattens its input to [M, K] with K
/// the weights' input size; ONNX Gemm-13 takes a matrix) gets a Reshape of A to [M, K] in front
/// (shape as an int64 constant input). A whose element count K does not divide is left. Returns
/// the number of nodes changed.
std::size_t gemm_input_as_matrix(Graph& g);

/// Gelu of a float32 X, for formats without the op (ONNX opset 17; Gelu is ONNX Gelu-20), as the
/// arithmetic Gelu-20 defines: approximate "none" as 0.5 * X * (1 + Erf(X / sqrt(2))), "tanh" as
/// 0.5 * X * (1 + Tanh(sqrt(2 / pi) * (X + 0.044715 * X^3))), with scalar constants. Returns the
/// number of nodes changed.
std::size_t gelu_as_arithmetic(Graph& g);

/// ONNX forms (sdk/core/src/rewrite_onnx_forms.cc): canonical ops and attributes that ONNX
/// opset 17 has no operator for, as the ONNX operators that compute the same, for the ONNX
/// writer. Each returns the number of nodes it replaced; nodes it cannot rewrite (types or
/// attributes it needs unknown) are left for the writer to refuse by name.
/// - Square(X) -> Mul(X, X).
/// - Rsqrt(X) -> Reciprocal(Sqrt(X)).
/// - ScaledTanh (alpha * tanh(beta * X), Arm NN's TanH activation) of float32 X -> Mul, Tanh, Mul.
/// - NotEqual(A, B) -> Not(Equal(A, B)).
/// - SquaredDifference(A, B) -> D = Sub(A, B), Mul(D, D).
/// - Stack(axis) of N inputs -> Unsqueeze-13 of each at `axis`, then Concat(axis): Stack's axis
///   counts in the output rank as both of theirs do.
/// - ArgMax / ArgMin with an Int32 output (Arm NN ArgMinMax) -> the op with an Int64 output (ONNX
///   ArgMax-13 has no other) and Cast(to int32).
/// - ConstantOfShape with an Int32 shape (Arm NN Fill) -> Cast(to int64) of the shape first
///   (ConstantOfShape-9 takes int64).
/// - InstanceNormalization with scalar gamma / beta attributes (Arm NN) and no scale / B inputs,
///   of a float32 NCHW X of known channels C -> scale and B as float32 [C] constants filled with
///   them (ONNX InstanceNormalization-6).
/// - LpNormalization p = 2 with epsilon > 0 (Arm NN L2Normalization: X / sqrt(max(sum X^2,
///   epsilon)) along axis) of float32 X of known rank -> Mul, ReduceSum(keepdims), Max, Sqrt, Div.
/// - LpPool p = 2 with mean = 1 (Arm NN L2 pooling: the square root of the average of squares,
///   the divisor as AveragePool's) of float32 X without dilation -> Sqrt(AveragePool(X * X)) with
///   the same window, pads, ceil_mode and count_include_pad.
/// - StridedSlice without ellipsis_mask / new_axis_mask, of X of known shape -> Slice-13 with
///   constant starts / ends / axes / steps resolved from begin, end, strides and the masks as
///   TensorFlow does, then Squeeze-13 of the shrink_axis_mask dims.
/// - SpaceToBatchND / BatchToSpaceND of a rank-4 X of known shape with two spatial dims (NHWC or
///   NCHW) -> TensorFlow's definition as ONNX operators: Pad, Reshape splitting each spatial dim
///   into (dim / block, block), Transpose moving the blocks in front of the batch (block row,
///   block column, batch: the output batch index is (i_h * block_w + i_w) * N + n), Reshape; and
///   the inverse followed by a Slice of the crops.
/// - Softmax / LogSoftmax with beta != 1 (Arm NN: exp(beta * (x - max)) / sum, the softmax of
///   beta * X) of float32 X -> Mul(X, beta) then the op without beta (ONNX Softmax-13).
/// - ReverseV2 (TensorFlow; Arm NN ReverseV2) with constant axes (attribute or input 1) of X of
///   known rank -> Slice-13 over those axes with starts -1, ends INT64_MIN and steps -1 (every
///   element, last first; a negative axis counts from the back), or Identity for no axes.
/// - ChannelShuffle (Arm NN, from Android NN) of X of known shape -> Reshape splitting `axis`
///   into [group, n / group], Transpose swapping the two, Reshape back to X's shape.
std::size_t square_as_mul(Graph& g);
std::size_t rsqrt_as_reciprocal(Graph& g);
std::size_t scaled_tanh_as_arithmetic(Graph& g);
std::size_t not_equal_as_not(Graph& g);
std::size_t squared_difference_as_sub_mul(Graph& g);
std::size_t stack_as_concat(Graph& g);
std::size_t arg_index_as_int64(Graph& g);
std::size_t shape_input_as_int64(Graph& g);
std::size_t instance_norm_scale_inputs(Graph& g);
std::size_t lp_normalization_epsilon_as_arithmetic(Graph& g);
std::size_t lp_pool_mean_as_average(Graph& g);
std::size_t strided_slice_as_slice(Graph& g);
std::size_t space_batch_as_reshapes(Graph& g);
std::size_t softmax_beta_as_mul(Graph& g);
std::size_t reverse_as_slice(Graph& g);
std::size_t channel_shuffle_as_reshapes(Graph& g);
/// All of the ONNX forms above, in that order.
std::size_t onnx_forms(Graph& g);

/// Affine (alpha * X + beta: the experimental ONNX Affine-1, Arm NN's Linear activation) of a
/// float32 X becomes Mul by the constant scalar alpha then Add of beta, for formats without the op
/// (ONNX opset 17). Returns the number of nodes changed.
std::size_t affine_as_mul_add(Graph& g);

/// The `axes` attribute of Reduce* nodes (ReduceMean, ReduceSum after operands_as_attributes, ...)
/// with negative entries, where X's rank r is known, gets them as r + axis (ONNX Reduce*-13:
/// range [-r, r - 1], negative counting from the back), for formats that store axes unsigned
/// (Arm NN's Mean and Reduce descriptors); so does the `axis` of Concat and Split (ONNX
/// Concat-13 / Split-13, the same range; Arm NN's OriginsDescriptor and ViewsDescriptor name the
/// dim by its index). Returns the number of nodes changed.
std::size_t nonnegative_axes(Graph& g);

/// Whether node n is an elementwise op with numpy broadcasting (Add, Sub, Mul, Div, Max, Min,
/// Pow, comparisons, logical ops, PRelu, Mod) whose two inputs have known, different ranks.
bool has_rank_mismatch(const Graph& g, const Node& n);

/// For those nodes, the input of lower rank gets the other's rank with leading 1s (numpy
/// broadcasting aligns shapes from the last dim, so the result is the same): a constant becomes a
/// new constant with the same bytes, a computed value of fully known shape goes through a Reshape.
/// For formats whose elementwise layers broadcast only between equal ranks (Arm NN 20.08's
/// ElementwiseBaseLayer). Returns the number of nodes changed.
std::size_t same_rank_operands(Graph& g);

/// Gather whose indices are a constant scalar (ONNX Gather-13: the axis is dropped from the
/// output) becomes Gather by the same index as a [1] tensor (the axis kept, size 1) followed by a
/// Reshape to the output's shape, where that shape is fully known: for formats without rank-0
/// tensors (Arm NN). Returns the number of nodes changed.
std::size_t scalar_gather_as_reshape(Graph& g);

/// Transpose of a fully known input of more than `max_rank` dims (a Swin Transformer's window
/// partition, [1, H/7, 7, W/7, 7, C] with perm [0, 1, 3, 2, 4, 5]) as the same permutation of
/// fewer dims, where that brings it within `max_rank`: input dims of size 1 are dropped and input
/// dims d, d + 1 that also follow each other in `perm` become one dim of their product (ONNX
/// Transpose-13: output dim k is input dim perm[k], so both move the same elements;
/// [8, 7, 8, 7 * C] with perm [0, 2, 1, 3] above). The Reshape that produces the input, when
/// nothing else reads it, produces the merged shape instead (else a Reshape is added before), and
/// the one Reshape that reads the output, when there is one, reads the merged result (else a
/// Reshape back to the output's shape is added after): for formats of at most 5 dims (Arm NN).
/// Returns the number of Transpose nodes changed.
std::size_t transpose_rank_reduced(Graph& g, std::size_t max_rank);

/// Gather of one constant scalar index (ONNX Gather-13, the axis dropped) from every reader of a
/// Transpose whose input has more than `max_rank` dims (a Swin Transformer's q, k, v taken from
/// its permuted qkv projection, [3, B, heads, N, d]) becomes Gather on the Transpose's input (dim
/// perm[axis]: output dim k of Transpose-13 is input dim perm[k]) followed by a Transpose of the
/// remaining dims in the same order; the first Transpose is removed. Returns the number of
/// Transposes removed.
std::size_t gather_before_transpose(Graph& g, std::size_t max_rank);

/// Gather of one constant scalar index on axis a of a Reshape's output of more than `max_rank`
/// dims, where the Reshape splits its input's dim a into dims a .. a + m (dims before and after
/// unchanged): index i is the contiguous range [i * S, (i + 1) * S) of that input dim (S: the
/// product of the split's other dims), so it becomes Slice-13 of the Reshape's input followed by
/// a Reshape to the Gather's output; the Reshape is removed when nothing else reads it. Returns
/// the number of Gathers changed.
std::size_t gather_of_split_as_slice(Graph& g, std::size_t max_rank);

/// Add / Sub / Mul / Div whose output has more than `max_rank` dims but at most `max_rank` that
/// are not 1 (a Swin Transformer's attention plus its mask, [1, windows, heads, N, N]) compute on
/// the dims that are not 1: numpy broadcasting puts a 1 in every operand where the output has
/// one, so the same elements meet. A constant operand gets a constant of the narrowed shape, a
/// Reshape producing an operand (nothing else reading it) produces the narrowed shape, else a
/// Reshape is added; the one Reshape reading the output reads the narrowed result, else a
/// Reshape back is added. Returns the number of nodes changed.
std::size_t unit_dims_dropped(Graph& g, std::size_t max_rank);

/// Slice with a step other than 1 (a Swin Transformer's patch merging, `x[..., 0::2, 0::2, :]`)
/// whose starts / ends / axes / steps are constants, all steps positive, and whose input shape is
/// fully known becomes StridedSlice (TensorFlow's, as Arm NN has it) with one begin / end / stride
/// per input dim: ONNX Slice-13's starts and ends resolved against the dims (negative counts from
/// the back, then clamped to [0, dim]), unsliced dims whole, no masks: the same elements. For
/// formats whose Slice takes no steps (Arm NN). Returns the number of nodes changed.
std::size_t slice_steps_as_strided_slice(Graph& g);

/// Tanh becomes ScaledTanh with alpha = beta = 1 (ONNX Tanh-13: tanh(X) = 1 * tanh(1 * X)), the
/// form Arm NN's Activation TanH (a * tanh(b * x)) holds. Returns the number of nodes changed.
std::size_t tanh_as_scaled_tanh(Graph& g);

/// Reciprocal of a Sqrt that nothing else reads becomes Rsqrt of the Sqrt's input (ONNX
/// Reciprocal-13 of Sqrt-13 is 1 / sqrt(X), two float roundings, as Rsqrt's kernels compute it),
/// the form Arm NN's ElementwiseUnary has (its writer's ONNX form is that pair: rsqrt_as_reciprocal).
/// Returns the number of nodes changed.
std::size_t reciprocal_sqrt_as_rsqrt(Graph& g);

}  // namespace nnbridge
