// The three protobuf forms, through libprotobuf: wire format, text format, JSON mapping.
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <limits>

#include "internal.h"
#include "nnbridge/error.h"

namespace nnbridge::config::tflite_accel::detail {
namespace {

// Keeps the text parser's first error with its position (1-based).
class FirstError : public pb::io::ErrorCollector {
 public:
  std::string message, where;
  void AddError(int line, pb::io::ColumnNumber column, const std::string& text) override {
    if (!message.empty()) return;
    message = text;
    where = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1);
  }
  void AddWarning(int, pb::io::ColumnNumber, const std::string&) override {}
};

// proto-text and proto-json have no way to write unknown fields that reads back.
void refuse_unknown(const pb::Message& m, Form form) {
  for (const UnknownAt& u : unknown_fields(m))
    throw Error(ErrorId::NoForm, describe(u) + "; " + std::string(to_string(form)) + " cannot hold it", {},
                u.path);
}

}  // namespace

void parse_proto(std::string_view bytes, Form form, pb::Message& m, const std::string& file,
                 const VerifierLimits& limits) {
  m.Clear();
  const std::string type = m.GetDescriptor()->full_name();
  const int depth = static_cast<int>(std::min<unsigned>(limits.max_depth, std::numeric_limits<int>::max()));
  switch (form) {
    case Form::ProtoBinary: {
      if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw Error(ErrorId::ResourceLimit, "not a protobuf wire-format " + type + " (over 2 GiB)", file);
      pb::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes.data()), static_cast<int>(bytes.size()));
      in.SetRecursionLimit(depth);
      if (!m.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
        throw Error(ErrorId::VerifyFailed,
                    "not a protobuf wire-format " + type + " (the bytes do not decode, or nest deeper than " +
                        std::to_string(depth) + " messages: reader option settings.max_depth)",
                    file);
      return;
    }
    case Form::ProtoText: {
      pb::TextFormat::Parser parser;
      parser.SetRecursionLimit(depth);
      FirstError errors;
      parser.RecordErrorsTo(&errors);
      if (!parser.ParseFromString(std::string(bytes), &m))
        throw Error(ErrorId::Syntax, errors.message.empty() ? "not protobuf text of " + type : errors.message,
                    file, errors.where);
      return;
    }
    case Form::ProtoJson: {
      pb::util::JsonParseOptions options;  // unknown keys are errors
      const auto status = pb::util::JsonStringToMessage(std::string(bytes), &m, options);
      if (!status.ok())
        throw Error(ErrorId::Syntax, "not protobuf JSON of " + type + ": " + std::string(status.message().data(), status.message().size()), file);
      return;
    }
    default: break;
  }
  throw std::logic_error("parse_proto: not a protobuf form");
}

std::string print_proto(const pb::Message& m, Form form) {
  std::string out;
  switch (form) {
    case Form::ProtoBinary:
      // Deterministic: fields by tag, then the unknown fields in the order they were read.
      if (!m.SerializeToString(&out))
        throw Error(ErrorId::UnsupportedOther, "the message does not serialize (larger than 2 GiB?)");
      return out;
    case Form::ProtoText: {
      refuse_unknown(m, form);
      pb::TextFormat::Printer printer;
      if (!printer.PrintToString(m, &out)) throw std::logic_error("TextFormat::Printer failed");
      return out;
    }
    case Form::ProtoJson: {
      refuse_unknown(m, form);
      pb::util::JsonPrintOptions options;
      options.add_whitespace = true;  // keys in lowerCamelCase, as the JSON mapping prints them
      const auto status = pb::util::MessageToJsonString(m, &out, options);
      if (!status.ok()) throw Error(ErrorId::NoForm, "cannot write protobuf JSON: " + std::string(status.message().data(), status.message().size()));
      return out;
    }
    default: break;
  }
  throw std::logic_error("print_proto: not a protobuf form");
}

}  // namespace nnbridge::config::tflite_accel::detail
