# cmake -DIN=<flatc --proto output> -DOUT=<configuration.fbs> -P rename_namespace.cmake
#
# The FlatBuffer twin keeps the proto package's name, tflite.proto. TFLite's build renames
# it to tflite (its BUILD runs `perl -p -i -e 's/tflite.proto/tflite/'` on flatc's output),
# so that the protobuf and FlatBuffers C++ classes do not collide; nested types then live in
# tflite.<Message>_. Done here the same way, on namespace declarations and type references.
file(READ "${IN}" text)
string(REGEX REPLACE "tflite\\.proto([.;])" "tflite\\1" text "${text}")
file(WRITE "${OUT}" "${text}")
