#include "internal.h"
#include "nnbridge/formats/onnx.h"

#include <climits>

#include <google/protobuf/io/coded_stream.h>

namespace nnbridge::formats::onnx {

namespace {

// ModelProto's top-level fields (onnx/onnx.proto, IR version 8) and their wire types
// (0 varint, 2 length-delimited).
int wire_type_of(uint64_t field) {
  switch (field) {
    case 1: case 5: return 0;                                              // ir_version, model_version
    case 2: case 3: case 4: case 6: case 7: case 8: case 14: case 20: case 25: return 2;
    default: return -1;
  }
}

// Protobuf carries no magic number: the bytes are ONNX when every top-level field is one of
// ModelProto's with its wire type, lengths stay inside the file, and ir_version (1..100) and a
// graph are present. The walk skips field contents, so it costs one step per top-level field.
// Past 2 GiB (protobuf's limit, which the reader then names) the first 2 GiB are looked at.
bool sniff(std::span<const std::byte> bytes) {
  const bool cut = bytes.size() > std::size_t(INT_MAX);
  if (cut) bytes = bytes.first(INT_MAX);
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), int(bytes.size()));
  bool ir = false, graph = false;
  for (int fields = 0; in.CurrentPosition() < int(bytes.size()); ++fields) {
    if (fields > 100000) return ir && graph;
    const uint32_t tag = in.ReadTagNoLastTag();
    const int wt = wire_type_of(tag >> 3);
    if (tag == 0 || wt < 0 || int(tag & 7) != wt) return false;
    uint64_t v = 0;
    if (!in.ReadVarint64(&v)) return false;
    if (wt == 2) {
      graph = graph || (tag >> 3) == 7;
      if (v > uint64_t(INT_MAX) || !in.Skip(int(v))) return cut && ir && graph;  // ends past the cut, or outside the file
    } else if ((tag >> 3) == 1) {
      if (v < 1 || v > 100) return false;
      ir = true;
    }
  }
  return ir && graph;
}

}  // namespace

FormatHandler format_handler() {
  FormatHandler h;
  h.name = "onnx";
  h.description = "ONNX model (protobuf ModelProto, ONNX 1.12; read at any opset, converted to and written at opset 17)";
  h.extensions = {"onnx"};
  h.reader_options = {"onnx.max_size", "onnx.max_nodes", "onnx.max_tensors"};
  h.writer_options = {"onnx.external_data", "onnx.external_data_threshold", "onnx.external_data_location",
                      "onnx.overwrite_external_data"};
  h.option_docs = {
      {"onnx.max_size", {"bytes of the .onnx file read at most; a larger file is refused naming this option (1 to 2^31 - 1)",
                         "2147483647"}},
      {"onnx.max_nodes", {"nodes read at most", "10000000"}},
      {"onnx.max_tensors", {"initializers plus Constant nodes read at most", "10000000"}},
      {"onnx.external_data",
       {"auto: initializers read from external data stay there, the rest inline unless they pass 2 GiB; "
        "true: every initializer of at least the threshold goes to a data file; false: all inline",
        "auto"}},
      {"onnx.external_data_threshold", {"bytes from which onnx.external_data=true moves an initializer out", "1024"}},
      {"onnx.external_data_location", {"the data file's name, beside the model", "<model file name>.data"}},
      {"onnx.overwrite_external_data",
       {"true: replace a data file the replaced model does not name", "false"}},
  };
  // ONNX's op_type (domain-qualified outside ai.onnx); a native node is onnx.<op_type>.
  h.native_op = [](const Node& n) -> std::string {
    std::string op = n.op.rfind("onnx.", 0) == 0 ? n.op.substr(5) : n.op;
    if (auto it = n.attrs.find("onnx.domain"); it != n.attrs.end() && it->second.is<std::string>()) {
      const std::string& d = it->second.get<std::string>();
      if (!d.empty() && d != "ai.onnx") op = d + "." + op;
    }
    return op;
  };
  h.native_ops = "onnx";
  h.check = check_graph;
  h.sniff = sniff;
  h.read = read_model;
  h.write = write_model;
  return h;
}

}  // namespace nnbridge::formats::onnx
