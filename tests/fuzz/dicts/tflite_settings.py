#!/usr/bin/env python3
"""Writes the five TFLite settings dictionaries (tflite_settings_<form>.dict) from the schema.

    /usr/bin/python3 tests/fuzz/dicts/tflite_settings.py   # needs protoc and python3-protobuf

The tokens are the schema's own facts, read from protoc's descriptor of
schemas/tflite_accel/configuration.proto: field names (snake_case for proto-text and fb-json,
protobuf's lowerCamelCase json_name for proto-json), enum value names, and for proto-binary each
field's tag as it appears on the wire (varint of number << 3 | wire type; repeated scalars also
packed). The fb form (the FlatBuffer twin) has no names on the wire: its dictionary holds the
vtable slot offsets of the widest table and the common little-endian integers.
The output is deterministic: rerun it after a schema change and review the diff.
"""
import os
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2 as pb

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
PROTO_DIR = os.path.join(ROOT, "schemas", "tflite_accel")
F = pb.FieldDescriptorProto

# Protobuf encoding guide, "Message Structure": wire types per field type.
WIRE = {F.TYPE_DOUBLE: 1, F.TYPE_FIXED64: 1, F.TYPE_SFIXED64: 1,
        F.TYPE_FLOAT: 5, F.TYPE_FIXED32: 5, F.TYPE_SFIXED32: 5,
        F.TYPE_STRING: 2, F.TYPE_BYTES: 2, F.TYPE_MESSAGE: 2, F.TYPE_GROUP: 3}

COMMON_INTS = [  # 0, 1, -1, INT32_MAX, INT32_MIN (32-bit little-endian), 64-bit -1 and INT64_MAX
    b"\x00\x00\x00\x00", b"\x01\x00\x00\x00", b"\xff\xff\xff\xff", b"\xff\xff\xff\x7f",
    b"\x00\x00\x00\x80", b"\xff\xff\xff\xff\xff\xff\xff\xff", b"\xff\xff\xff\xff\xff\xff\xff\x7f"]


def descriptor():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "d.pb")
        subprocess.run(["protoc", "--descriptor_set_out=" + out, "-I", PROTO_DIR, "configuration.proto"], check=True)
        s = pb.FileDescriptorSet()
        with open(out, "rb") as f:
            s.ParseFromString(f.read())
    return s.file[0]


def messages(ms):
    for m in ms:
        yield m
        yield from messages(m.nested_type)


def enums(file):
    yield from file.enum_type
    for m in messages(file.message_type):
        yield from m.enum_type


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def quote(data):
    if isinstance(data, str):
        data = data.encode()
    s = ""
    for b in data:
        c = chr(b)
        s += "\\" + c if c in '"\\' else c if 0x20 <= b < 0x7F else "\\x%02x" % b
    return '"' + s + '"'


def write(name, header, tokens):
    seen, lines = set(), []
    for t in tokens:
        q = quote(t)
        if q not in seen:
            seen.add(q)
            lines.append(q)
    with open(os.path.join(HERE, name + ".dict"), "w") as f:
        f.write("# libFuzzer dictionary, written by tests/fuzz/dicts/tflite_settings.py from\n")
        f.write("# schemas/tflite_accel/configuration.proto: " + header + "\n")
        f.write("\n".join(lines) + "\n")
    print(name + ".dict: %d tokens" % len(lines))


def main():
    file = descriptor()
    fields = [f for m in messages(file.message_type) for f in m.field]
    values = [v.name for e in enums(file) for v in e.value]

    tags = []
    for f in fields:
        wire = WIRE.get(f.type, 0)
        tags.append(varint(f.number << 3 | wire))
        if f.label == F.LABEL_REPEATED and wire in (0, 1, 5):
            tags.append(varint(f.number << 3 | 2))
    write("tflite_settings_protobinary", "each field's tag on the wire (varint of number << 3 | wire type)",
          sorted(set(tags)) + [varint(1 << 31), varint((1 << 64) - 1)] + COMMON_INTS)

    snake = sorted({f.name for f in fields})
    write("tflite_settings_prototext", "field names and enum value names, as protobuf text spells them",
          [n + ":" for n in snake] + [n + " {" for n in snake] + sorted(set(values)) + ["}", "true", "false", "\"", "#"])
    camel = sorted({f.json_name for f in fields} | set(snake))
    write("tflite_settings_protojson", "field names (json_name and snake_case) and enum value names, as protobuf JSON spells them",
          ['"%s":' % n for n in camel] + ['"%s"' % v for v in sorted(set(values))] +
          ["{", "}", "[", "]", "true", "false", "null", '"9223372036854775807"', '"-1"'])
    write("tflite_settings_fbjson", "field names and enum value names, as FlatBuffers JSON spells them (snake_case)",
          ['"%s":' % n for n in snake] + [n + ":" for n in snake] + sorted(set(values)) +
          ["{", "}", "[", "]", "true", "false", "//", "/*", "*/"])

    widest = max(len(m.field) for m in messages(file.message_type))
    slots = [(4 + 2 * i).to_bytes(2, "little") for i in range(widest + 2)]
    write("tflite_settings_fb", "vtable sizes and field offsets (16-bit), and common little-endian integers",
          slots + COMMON_INTS + [b"\x00\x00\x80\x3f"])


if __name__ == "__main__":
    sys.exit(main())
