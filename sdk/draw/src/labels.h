// The text of a drawing's labels (labels.cc): types, attributes and constant notes, kept short
// so that a graph of hundreds of nodes stays readable, and HTML-escaped for Graphviz's
// HTML-like labels.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "nnbridge/attr.h"
#include "nnbridge/graph.h"

namespace nnbridge::draw_detail {

/// Limits of one label (documented on to_dot in nnbridge/draw.h).
inline constexpr std::size_t kMaxListItems = 8;   ///< a longer list shows its ends and its length
inline constexpr std::size_t kMaxTextChars = 40;  ///< longer text is cut
inline constexpr std::size_t kMaxAttrs = 8;       ///< attribute lines per node
inline constexpr std::size_t kMaxNotes = 6;       ///< constant notes per node
inline constexpr std::size_t kMaxValues = 8;      ///< a constant of at most this many elements shows them

/// `text` made safe for a label: invalid UTF-8 and control characters become '?'.
std::string clean_utf8(std::string_view text);
/// `text` cleaned and cut to `max_chars` characters (UTF-8 code points), keeping its end after
/// "..." (names such as "MobilenetV1/Conv2d_13_pointwise/Relu6" differ at the end).
std::string cut_keep_end(std::string_view text, std::size_t max_chars = kMaxTextChars);
/// `text` with & < > " escaped for an HTML-like label.
std::string html_escape(std::string_view text);

/// "float32 [1, 8, 8, 1]": dtype ("?" when unknown) and shape ("?" for an unknown dim, "[*]" for
/// an unknown rank), plus " scale=0.05 zero_point=128" for a per-tensor quantized type or
/// " per-axis 64 scales" for a per-axis one. Empty when neither dtype nor rank is known.
std::string type_text(const TensorType& t);
/// An attribute value: numbers as their shortest text, lists "[1, 2]" (ends and length beyond
/// kMaxListItems), text cut at kMaxTextChars, bytes "<N bytes>".
std::string attr_value_text(const Attr& a);
/// The note for a constant input of node `consumer` (its name): "<name> <type_text>", the name
/// without a leading "<consumer>." (or ':', '/', '_'), " = <values>" for a numeric constant of at
/// most kMaxValues elements (floats to 4 significant digits), " (external data <key>)" for one
/// whose bytes were not loaded.
std::string constant_note(const Value& v, std::string_view consumer);

}  // namespace nnbridge::draw_detail
