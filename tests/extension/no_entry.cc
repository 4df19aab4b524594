// A shared library that is not an nnbridge extension: it exports a function, but not the entry point.
extern "C" __attribute__((visibility("default"))) int not_the_nnbridge_entry_point() { return 42; }
