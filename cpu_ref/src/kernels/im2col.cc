// im2col (im2col.h).
#include "im2col.h"

#include <algorithm>
#include <vector>

#include "../igemm/igemm.h"
#include "../simd/simd.h"

namespace nnbridge::cpu_ref {

namespace {

// Output columns ox whose input column ix = ox * s - p + k * d lies in [0, w): [lo, hi).
struct ColRange {
  int64_t lo = 0, hi = 0, ix0 = 0;  // ix0: the input column of ox = lo
};
ColRange col_range(int64_t w, int64_t ow, int64_t s, int64_t p, int64_t off) {
  // ix >= 0  <=>  ox >= ceil((p - off) / s);  ix <= w - 1  <=>  ox <= floor((w - 1 + p - off) / s).
  auto floor_div = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  ColRange r;
  r.lo = std::clamp<int64_t>(-floor_div(off - p, s), 0, ow);
  r.hi = std::clamp<int64_t>(floor_div(w - 1 + p - off, s) + 1, r.lo, ow);
  r.ix0 = r.lo * s - p + off;
  return r;
}

}  // namespace

void im2col_nchw(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, float* col,
                 float pad) {
  im2col_nchw_rows(g, x, n, gi, oy0, oy1, 0, g.c / g.group * g.kh * g.kw, col, pad);
}

void im2col_nchw_rows(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, int64_t k0,
                      int64_t k1, float* col, float pad) {
  const int64_t cg = g.c / g.group, P = (oy1 - oy0) * g.ow;
  const simd::Kernels& kernels = simd::kernels();
  std::vector<ColRange> cols(static_cast<std::size_t>(g.kw));
  for (int64_t kx = 0; kx < g.kw; ++kx) cols[kx] = col_range(g.w, g.ow, g.sw, g.pl, kx * g.dw);
  for (int64_t k = k0; k < k1; ++k) {
    const int64_t ci = k / (g.kh * g.kw), ky = k / g.kw % g.kh, kx = k % g.kw;
    const float* plane = x + (n * g.c + gi * cg + ci) * g.h * g.w;
    float* row = col + (k - k0) * P;
    const ColRange r = cols[kx];
    for (int64_t oy = oy0; oy < oy1; ++oy, row += g.ow) {
      const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
      if (iy < 0 || iy >= g.h || r.lo == r.hi) {
        std::fill_n(row, g.ow, pad);
        continue;
      }
      std::fill_n(row, r.lo, pad);
      const float* src = plane + iy * g.w + r.ix0;
      if (g.sw == 1) std::copy_n(src, r.hi - r.lo, row + r.lo);
      else if (g.sw == 2) kernels.take_even(src, static_cast<std::size_t>(r.hi - r.lo), row + r.lo);
      else
        for (int64_t ox = r.lo; ox < r.hi; ++ox, src += g.sw) row[ox] = *src;
      std::fill(row + r.hi, row + g.ow, pad);
    }
  }
}

namespace {

// The phases a dimension's taps read (tap offset k * d modulo the stride s), numbered in order:
// slot[b] for b in [0, s), -1 for a phase no tap reads; the count of those read.
struct PhaseSlots {
  std::vector<int64_t> slot;
  int64_t count = 0;
};
PhaseSlots phase_slots(int64_t s, int64_t k, int64_t d) {
  PhaseSlots p;
  p.slot.assign(static_cast<std::size_t>(s), -1);
  for (int64_t t = 0; t < k; ++t) p.slot[(t * d) % s] = 0;
  for (int64_t& v : p.slot)
    if (v == 0) v = p.count++;
  return p;
}

}  // namespace

int64_t shifted_width(const ConvGeom& g) { return g.ow + (g.kw - 1) * g.dw / g.sw; }

int64_t shifted_rows_in(const ConvGeom& g, int64_t out_rows) { return out_rows + (g.kh - 1) * g.dh / g.sh; }

int64_t shifted_staged(const ConvGeom& g, int64_t out_rows) {
  const int64_t phases = phase_slots(g.sh, g.kh, g.dh).count * phase_slots(g.sw, g.kw, g.dw).count;
  return g.c / g.group * phases * shifted_rows_in(g, out_rows) * shifted_width(g);
}

bool shifted_grid_pays(const ConvGeom& g, int64_t out_rows) {
  const int64_t wp = shifted_width(g), grid = out_rows * wp - (wp - g.ow), outputs = out_rows * g.ow;
  return grid >= 16 && (grid + 15) / 16 * 8 <= (outputs + 15) / 16 * 9;
}

namespace {

// pad_input_nchw's planes of T: `pad` outside the image, copy_row(src, count, dst) copies count
// input elements sw apart from src (the columns of one phase row inside the image).
template <class T, class CopyRow>
void pad_phases(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, T pad, CopyRow copy_row,
                T* dst) {
  const int64_t cg = g.c / g.group, wp = shifted_width(g), rows_in = shifted_rows_in(g, oy1 - oy0);
  const PhaseSlots py = phase_slots(g.sh, g.kh, g.dh), px = phase_slots(g.sw, g.kw, g.dw);
  for (int64_t ci = 0; ci < cg; ++ci) {
    const float* plane = x + (n * g.c + gi * cg + ci) * g.h * g.w;
    for (int64_t by = 0; by < g.sh; ++by) {
      if (py.slot[by] < 0) continue;
      for (int64_t bx = 0; bx < g.sw; ++bx) {
        if (px.slot[bx] < 0) continue;
        T* phase = dst + ((ci * py.count + py.slot[by]) * px.count + px.slot[bx]) * rows_in * wp;
        // Phase columns q hold input columns q * sw + bx - pl: [cols.lo, cols.hi) of them lie
        // inside the image.
        const ColRange cols = col_range(g.w, wp, g.sw, g.pl, bx);
        for (int64_t r = 0; r < rows_in; ++r) {
          T* row = phase + r * wp;
          const int64_t iy = (oy0 + r) * g.sh + by - g.pt;
          if (iy < 0 || iy >= g.h || cols.lo == cols.hi) {
            std::fill_n(row, wp, pad);
            continue;
          }
          std::fill_n(row, cols.lo, pad);
          copy_row(plane + iy * g.w + cols.ix0, cols.hi - cols.lo, row + cols.lo);
          std::fill(row + cols.hi, row + wp, pad);
        }
      }
    }
  }
}

}  // namespace

void pad_input_nchw(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, float* dst) {
  const simd::Kernels& kernels = simd::kernels();
  const int64_t sw = g.sw;
  pad_phases<float>(g, x, n, gi, oy0, oy1, 0.0f, [&](const float* src, int64_t count, float* row) {
    if (sw == 1) std::copy_n(src, count, row);
    else if (sw == 2) kernels.take_even(src, static_cast<std::size_t>(count), row);
    else
      for (int64_t q = 0; q < count; ++q, src += sw) row[q] = *src;
  }, dst);
}

void pad_input_nchw_u8(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, float add,
                       uint8_t pad, uint8_t* dst) {
  const int64_t sw = g.sw;
  pad_phases<uint8_t>(g, x, n, gi, oy0, oy1, pad, [&](const float* src, int64_t count, uint8_t* row) {
    igemm_stage_row(src, sw, count, add, row);
  }, dst);
}

namespace {

// f(k, offset) for the K = cg * kh * kw taps k = (ci, ky, kx): where row k of im2col's col starts
// in pad_input_nchw's planes (im2col.h, shifted_rows).
template <class F>
void tap_offsets(const ConvGeom& g, int64_t out_rows, F f) {
  const int64_t cg = g.c / g.group, wp = shifted_width(g), rows_in = shifted_rows_in(g, out_rows);
  const PhaseSlots py = phase_slots(g.sh, g.kh, g.dh), px = phase_slots(g.sw, g.kw, g.dw);
  for (int64_t ci = 0, k = 0; ci < cg; ++ci)
    for (int64_t ky = 0; ky < g.kh; ++ky)
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t oy = ky * g.dh, ox = kx * g.dw;  // tap offsets in the padded input
        const int64_t phase = ((ci * py.count + py.slot[oy % g.sh]) * px.count + px.slot[ox % g.sw]) * rows_in * wp;
        f(k++, phase + oy / g.sh * wp + ox / g.sw);
      }
}

}  // namespace

void shifted_offsets(const ConvGeom& g, int64_t out_rows, int64_t* offsets) {
  tap_offsets(g, out_rows, [&](int64_t k, int64_t off) { offsets[k] = off; });
}

void shifted_rows(const ConvGeom& g, const float* dst, int64_t out_rows, const float** rows) {
  tap_offsets(g, out_rows, [&](int64_t k, int64_t off) { rows[k] = dst + off; });
}

void im2col_nhwc(const ConvGeom& g, const float* x, int64_t n, int64_t gi, int64_t oy0, int64_t oy1, float* col) {
  const int64_t cg = g.c / g.group, K = cg * g.kh * g.kw;
  for (int64_t oy = oy0; oy < oy1; ++oy)
    for (int64_t ox = 0; ox < g.ow; ++ox) {
      float* row = col + ((oy - oy0) * g.ow + ox) * K;
      for (int64_t ky = 0; ky < g.kh; ++ky) {
        const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
        for (int64_t kx = 0; kx < g.kw; ++kx, row += cg) {
          const int64_t ix = ox * g.sw - g.pl + kx * g.dw;
          if (iy >= 0 && iy < g.h && ix >= 0 && ix < g.w) std::copy_n(x + ((n * g.h + iy) * g.w + ix) * g.c + gi * cg, cg, row);
          else std::fill_n(row, cg, 0.0f);
        }
      }
    }
}

}  // namespace nnbridge::cpu_ref
