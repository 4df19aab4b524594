# The two set-up commands: `make demo` and `make test`. Both install missing Debian packages,
# configure once and build incrementally into build/.
BUILD ?= build
GENERATOR ?= Ninja
CMAKE_FLAGS ?=

# Robustness (tests/fuzz/README.md): `make fuzz SECONDS=N` builds the libFuzzer harnesses with
# clang in $(FUZZ_BUILD)/ and runs each for N seconds; `make fuzz-smoke` runs every harness once
# over its seeds in the normal build (the ctests fuzz.smoke.*, also part of `make test`);
# `make test-sanitize` builds the tests with ASan + UBSan in $(ASAN_BUILD)/ and runs them
# (scripts/test-sanitize.sh says which it skips); `make test-clang` builds the whole tree with
# clang in $(CLANG_BUILD)/ and runs its tests (CI does both compilers).
FUZZ_BUILD ?= build-fuzz
ASAN_BUILD ?= build-asan
CLANG_BUILD ?= build-clang
SECONDS ?= 60
# `make bench BENCH=scale` runs only some of the benchmarks (load, run, scale, zoo; bench/README.md).
BENCH ?=
# `make zoo` runs the model zoo (examples/zoo/README.md) on every model; `make zoo ZOO="--models
# resnet18,mobilenet_v2 --backends cpu"` passes other arguments to examples/zoo/zoo.py.
ZOO ?=

.PHONY: all deps configure build test demo zoo bench clean fuzz fuzz-smoke test-sanitize test-clang

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt | deps
	@cmake -S . -B $(BUILD) -G $(GENERATOR) $(CMAKE_FLAGS) >/dev/null

configure: deps $(BUILD)/build.ninja

build: configure
	@cmake --build $(BUILD)

test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j2

demo: build
	@examples/demo.sh $(BUILD)

zoo: build
	@/usr/bin/python3 examples/zoo/zoo.py --build $(BUILD) $(ZOO)

bench: build
	@bench/run.sh $(BUILD) $(BENCH)

fuzz-smoke: build
	@ctest --test-dir $(BUILD) -R '^fuzz\.smoke\.' -j2

test-clang: deps
	@CC=clang CXX=clang++ cmake -S . -B $(CLANG_BUILD) -G $(GENERATOR) -DNNBRIDGE_BUILD_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(CLANG_BUILD)
	@ctest --test-dir $(CLANG_BUILD) --output-on-failure -j2

fuzz: deps
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G $(GENERATOR) \
	  -DNNBRIDGE_BUILD_FUZZ=ON -DNNBRIDGE_BUILD_TESTS=OFF -DNNBRIDGE_BUILD_BENCH=OFF -DNNBRIDGE_BUILD_PEERS=OFF >/dev/null
	@cmake --build $(FUZZ_BUILD) --target nnbridge_fuzz
	@tests/fuzz/run.sh $(FUZZ_BUILD) $(SECONDS)

test-sanitize: deps
	@cmake -S . -B $(ASAN_BUILD) -G $(GENERATOR) -DNNBRIDGE_SANITIZE=ON \
	  -DNNBRIDGE_BUILD_BENCH=OFF -DNNBRIDGE_BUILD_PYTHON=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD)
	@scripts/test-sanitize.sh $(ASAN_BUILD)

clean:
	rm -rf $(BUILD)
