// im2col of the GEMM convolution (conv.cc): the input patches of a block of output rows laid
// out as the matrix the GEMM multiplies with W. Pure copies: every element is either an input
// element or an exact 0 (a tap in the padding), so no result depends on how they are copied.
#pragma once

#include <cstdint>

#include "conv.h"

namespace nnbridge::cpu_ref {

/// NCHW: col [K, P] row-major, K = (ci, ky, kx) over the cg = c / group input channels of group
/// gi, P = (oy1 - oy0) * ow output positions of rows oy0 .. oy1 of image n:
/// col[(ci, ky, kx)][(oy - oy0) * ow + ox] = X[n][gi * cg + ci][iy][ix] with iy = oy * sh - pt +
/// ky * dh, ix = ox * sw - pl + kx * dw (ONNX Conv-11), or `pad` outside the image (0 for a
/// convolution; the integer convolutions pad with x_zero_point). Each row of a tap is one bulk
/// copy (stride 2: simd::Kernels::take_even) between two padding runs: the columns whose ix is inside the image are computed once per
/// kx, not tested per element.
void im2col_nchw(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, float* col,
                 float pad = 0.0f);
/// Rows k0 .. k1 of im2col_nchw's col only, from col[0] on ([k1 - k0, P]).
void im2col_nchw_rows(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, int64_t k0,
                      int64_t k1, float* col, float pad = 0.0f);

/// The alternative to im2col_nchw that copies each input element once: the input rows that
/// output rows oy0 .. oy1 of image n, group gi read, zero-padded and split into the phases of the
/// strides (sh, sw). Tap (ky, kx) reads padded row oy * sh + ky * dh and column ox * sw + kx * dw,
/// that is phase (ky * dh % sh, kx * dw % sw), at phase row oy + ky * dh / sh and phase column
/// ox + kx * dw / sw. dst holds, per input channel ci < cg, one plane [rows_in][wp] per phase that
/// a tap reads (in order of by, then bx; stride 1: the single phase (0, 0)), rows_in =
/// shifted_rows_in(g, oy1 - oy0), wp = shifted_width(g): plane(ci, by, bx)[r][q] = X[n][gi * cg +
/// ci][(oy0 + r) * sh + by - pt][q * sw + bx - pl], or 0 outside the image. Row k = (ci, ky, kx) of
/// im2col's col is then, in a grid of wp columns per output row (the last wp - ow of each row are
/// not outputs), the contiguous run that starts at shifted_rows' pointer k: col[k][(oy - oy0) * ow
/// + ox] = rows[k][(oy - oy0) * wp + ox] for ox < ow.
int64_t shifted_width(const ConvGeom& g);  // ow + (kw - 1) * dw / sw
int64_t shifted_rows_in(const ConvGeom& g, int64_t out_rows);  // out_rows + (kh - 1) * dh / sh
/// The floats pad_input_nchw writes for out_rows output rows.
int64_t shifted_staged(const ConvGeom& g, int64_t out_rows);
/// Whether the GEMM convolution (conv.cc) reads a block of `out_rows` output rows as shifted
/// rows: the grid of out_rows * wp - (wp - ow) columns has at least 16 (sgemm's B by rows) and
/// needs at most 1/8 more 16-float vectors per row of W than the out_rows * ow outputs (7 x 7,
/// 3 x 3 stride 1: 61 columns against 49, both 4 vectors; 13 x 13: 193 against 169, 13 against
/// 11, not taken).
bool shifted_grid_pays(const ConvGeom& g, int64_t out_rows);
void pad_input_nchw(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, float* dst);
/// pad_input_nchw's planes as the bytes of the int8 GEMM (igemm.h) of the integer convolutions:
/// X + add clamped to [0, 255] (igemm_stage_row) inside the image, `pad` outside. Requires
/// igemm_available().
void pad_input_nchw_u8(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, float add,
                       uint8_t pad, uint8_t* dst);
/// rows[(ci, ky, kx)] = plane(ci, ky * dh % sh, kx * dw % sw) + (ky * dh / sh) * wp + kx * dw /
/// sw, for the K = cg * kh * kw rows, in pad_input_nchw's dst.
void shifted_rows(const ConvGeom& g, const float* dst, int64_t out_rows, const float** rows);
/// The same places as element offsets from dst: offsets[k] = rows[k] - dst.
void shifted_offsets(const ConvGeom& g, int64_t out_rows, int64_t* offsets);

/// NHWC: col [P, K] row-major, K = (ky, kx, ci): col[(oy - oy0) * ow + ox][(ky, kx, ci)] =
/// X[n][iy][ix][gi * cg + ci], or 0 outside the image (the same iy, ix).
void im2col_nhwc(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, float* col);

}  // namespace nnbridge::cpu_ref
