# The SDK as embedders get it from `cmake --install` (issue 8, docs/api.md "Linking"):
#
#   include/nnbridge/...          every module's public headers, as consumers include them, and
#                                 the configured nnbridge/version.h (sdk/core/version.h.in)
#   lib/libnnbridge.so.0.1        NNBRIDGE_BUILD_SHARED: the whole SDK (core, io, formats, config,
#                                 exec, the cpu and opencl backends) in one shared library
#   lib/libnnbridge.a             NNBRIDGE_BUILD_STATIC: the same objects in one archive
#   lib/cmake/nnbridge/           nnbridgeConfig.cmake (+ version file): targets
#                                 nnbridge::nnbridge_shared, nnbridge::nnbridge_static, and
#                                 nnbridge::nnbridge, which is the shared one unless the consumer
#                                 sets nnbridge_USE_STATIC_LIBS (or only the archive is installed),
#                                 the convention of FindBoost/FindOpenSSL/FindProtobuf; and
#                                 nnbridge::cpu_kernel_api (headers only, for cpu extensions)
#   lib/pkgconfig/nnbridge.pc     -lnnbridge; `pkg-config --static` adds the archive's dependencies
#   bin/nnbridge                  the CLI
#
# The in-tree modules stay static libraries (the CLI and tests link them); both installed
# libraries are made from the same object files, collected by walking the link graph of the
# aggregate `nnbridge` target (sdk/CMakeLists.txt) and of the opencl backend, so a module added to
# the aggregate is packaged without an edit here. The third-party libraries they link (FlatBuffers,
# protobuf, OpenCL, ...) stay private: the shared library links them itself; the archive names them
# as link-only dependencies, which nnbridgeConfig.cmake finds (find_dependency) only for a static
# consumer. Header-only dependencies (nlohmann_json, Eigen, xsimd) are compiled in and never reach
# consumers: no public header includes them, nor any flatc- or protoc-generated header
# (tests/package checks the installed tree).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Instrumented builds (cmake/Sanitizers.cmake) are for tests, not for installing: off there.
if(NNBRIDGE_SANITIZE OR NNBRIDGE_BUILD_FUZZ)
  set(_nnb_default OFF)
else()
  set(_nnb_default ON)
endif()
option(NNBRIDGE_BUILD_SHARED "Build and install the SDK as a shared library (libnnbridge.so)" ${_nnb_default})
option(NNBRIDGE_BUILD_STATIC "Build and install the SDK as a static library (libnnbridge.a)" ${_nnb_default})

# What find_dependency() and pkg-config need for a third-party library the archive links.
# Sets <out_pkg> (package name for find_dependency, empty if none) and <out_flag> (-l flag).
function(_nnbridge_dependency item out_pkg out_flag)
  set(pkg "")
  set(flag "")
  if(item STREQUAL "flatbuffers::flatbuffers" OR item STREQUAL "flatbuffers::flatbuffers_shared")
    set(pkg "FlatBuffers")
    set(flag "-lflatbuffers")
  elseif(item MATCHES "^protobuf::libprotobuf")
    set(pkg "Protobuf")
    set(flag "-lprotobuf")
  elseif(item STREQUAL "onnx" OR item STREQUAL "onnx_proto")
    set(pkg "ONNX")  # ONNXConfig.cmake defines these (unnamespaced) targets
    set(flag "-l${item}")
  elseif(item STREQUAL "OpenCL::OpenCL")
    set(pkg "OpenCL")
    set(flag "-lOpenCL")
  elseif(item MATCHES "^pugixml")
    set(pkg "pugixml")
    set(flag "-lpugixml")
  elseif(item STREQUAL "Threads::Threads")
    set(pkg "Threads")
    set(flag "-pthread")
  elseif(item STREQUAL "Eigen3::Eigen")
    set(pkg "Eigen3")  # header-only: found for its type, never a dependency of the package
  elseif(item STREQUAL "nlohmann_json::nlohmann_json")
    set(pkg "nlohmann_json")
  elseif(NOT item MATCHES "::")
    # A plain library name (dl) or a linker flag.
    if(item MATCHES "^-")
      set(flag "${item}")
    else()
      set(flag "-l${item}")
    endif()
  else()
    message(WARNING "nnbridge packaging: no find_dependency() known for ${item}; a static consumer "
                    "must find it itself (add it to _nnbridge_dependency in cmake/package.cmake)")
  endif()
  set(${out_pkg} "${pkg}" PARENT_SCOPE)
  set(${out_flag} "${flag}" PARENT_SCOPE)
endfunction()

# Walks the link graph from `roots`: the project's own libraries (nnbridge_*) whose objects go
# into the package, their public include folders, and the third-party libraries they link.
function(_nnbridge_collect roots out_objects out_libs out_includes out_externals)
  set(queue ${roots})
  set(seen "")
  set(objects "")
  set(libs "")
  set(includes "")
  set(externals "")
  while(queue)
    list(POP_FRONT queue t)
    if(t IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(aliased ${t} ALIASED_TARGET)
    if(aliased)
      list(APPEND queue ${aliased})
      continue()
    endif()
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "OBJECT_LIBRARY")
      list(APPEND objects "$<TARGET_OBJECTS:${t}>")
      list(APPEND libs ${t})
    endif()
    get_target_property(dirs ${t} INTERFACE_INCLUDE_DIRECTORIES)
    foreach(d IN LISTS dirs)
      # Only include/ folders are public: the source tree's, and the build tree's that hold
      # configured headers (sdk/core's nnbridge/version.h); flatc/protoc output is not.
      string(REGEX REPLACE "^\\$<BUILD_INTERFACE:(.*)>$" "\\1" d "${d}")
      if((d MATCHES "^${PROJECT_SOURCE_DIR}/.*/include$" OR d MATCHES "^${PROJECT_BINARY_DIR}/.*/include$")
         AND EXISTS ${d}/nnbridge)
        list(APPEND includes ${d})
      endif()
    endforeach()
    if(type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(deps ${t} INTERFACE_LINK_LIBRARIES)
    else()
      get_target_property(deps ${t} LINK_LIBRARIES)
    endif()
    foreach(d IN LISTS deps)
      if(NOT d)
        continue()
      endif()
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}")
      if(d MATCHES "^nnbridge_" AND TARGET ${d})
        list(APPEND queue ${d})
      elseif(d MATCHES "^nnbridge::" AND TARGET ${d})
        list(APPEND queue ${d})
      elseif(d MATCHES "^\\$<")
        continue()  # include-path helpers such as $<TARGET_PROPERTY:...>
      endif()
      if(d MATCHES "::" AND NOT TARGET ${d})
        # Imported targets are visible only in the folder that found them: find it here too.
        _nnbridge_dependency(${d} pkg flag)
        if(pkg)
          find_package(${pkg} QUIET)
        endif()
        if(NOT TARGET ${d})
          message(WARNING "nnbridge packaging: ${t} links ${d}, which is not visible here; left out")
          continue()
        endif()
      endif()
      if(d MATCHES "^nnbridge")
        # handled above
      elseif(TARGET ${d})
        get_target_property(dtype ${d} TYPE)
        get_target_property(dlinks ${d} INTERFACE_LINK_LIBRARIES)
        # Header-only libraries (INTERFACE targets that link nothing: Eigen, nlohmann_json) are
        # compiled in; an INTERFACE target that links a library (pugixml::pugixml) is kept.
        if(NOT dtype STREQUAL "INTERFACE_LIBRARY" OR dlinks)
          list(APPEND externals ${d})
        endif()
      else()
        list(APPEND externals ${d})
      endif()
    endforeach()
  endwhile()
  list(REMOVE_DUPLICATES includes)
  list(REMOVE_DUPLICATES externals)
  set(${out_objects} "${objects}" PARENT_SCOPE)
  set(${out_libs} "${libs}" PARENT_SCOPE)
  set(${out_includes} "${includes}" PARENT_SCOPE)
  set(${out_externals} "${externals}" PARENT_SCOPE)
endfunction()

if(NOT TARGET nnbridge)
  return()
endif()
set(_roots nnbridge)
if(TARGET nnbridge_gpu)
  list(APPEND _roots nnbridge_gpu)
endif()
_nnbridge_collect("${_roots}" _nnb_objects _nnb_libs _nnb_includes _nnb_externals)

set(_nnb_build_includes "")
foreach(d IN LISTS _nnb_includes)
  list(APPEND _nnb_build_includes "$<BUILD_INTERFACE:${d}>")
endforeach()

if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_nnb_soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  set(_nnb_compatibility SameMinorVersion)
else()
  set(_nnb_soversion ${PROJECT_VERSION_MAJOR})
  set(_nnb_compatibility SameMajorVersion)
endif()
set(_nnb_install_targets "")
set(_nnb_variants "")
if(NNBRIDGE_BUILD_SHARED)
  list(APPEND _nnb_variants shared)
endif()
if(NNBRIDGE_BUILD_STATIC)
  list(APPEND _nnb_variants static)
endif()
foreach(variant IN LISTS _nnb_variants)
  set(t nnbridge_${variant})
  string(TOUPPER ${variant} kind)
  add_library(${t} ${kind} ${_nnb_objects})
  add_library(nnbridge::nnbridge_${variant} ALIAS ${t})
  add_dependencies(${t} ${_nnb_libs})
  # The soname (docs/api.md "Versions, soname and deprecation"): from 1.0 the major version, which
  # alone may break the ABI; before 1.0 every minor version may, so it carries major.minor.
  set_target_properties(${t} PROPERTIES OUTPUT_NAME nnbridge EXPORT_NAME nnbridge_${variant}
    VERSION ${PROJECT_VERSION} SOVERSION ${_nnb_soversion})
  target_include_directories(${t} INTERFACE ${_nnb_build_includes} $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # The public headers are C++20 (std::span, defaulted comparison operators).
  target_compile_features(${t} INTERFACE cxx_std_20)
  set(externals ${_nnb_externals})
  if(variant STREQUAL "shared" AND TARGET flatbuffers::flatbuffers_shared)
    # Debian's libflatbuffers.a is not position-independent: a shared library links the .so.
    list(TRANSFORM externals REPLACE "^flatbuffers::flatbuffers$" "flatbuffers::flatbuffers_shared")
  endif()
  target_link_libraries(${t} PRIVATE ${externals})
  list(APPEND _nnb_install_targets ${t})
endforeach()
if(NOT _nnb_install_targets)
  message(STATUS "nnbridge: NNBRIDGE_BUILD_SHARED and NNBRIDGE_BUILD_STATIC are OFF: no library is installed")
endif()

# Headers, the CLI and the kernel-API target for cpu extensions.
foreach(d IN LISTS _nnb_includes)
  install(DIRECTORY ${d}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel
    FILES_MATCHING PATTERN "*.h")
endforeach()
if(TARGET nnbridge_cli)
  install(TARGETS nnbridge_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()
if(TARGET nnbridge_cpu_kernel_api)
  # Its build-tree include paths are source folders; installed, the headers are all in include/.
  add_library(nnbridge_cpu_kernel_api_installed INTERFACE)
  set_target_properties(nnbridge_cpu_kernel_api_installed PROPERTIES EXPORT_NAME cpu_kernel_api)
  target_include_directories(nnbridge_cpu_kernel_api_installed INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(nnbridge_cpu_kernel_api_installed INTERFACE cxx_std_20)
  list(APPEND _nnb_install_targets nnbridge_cpu_kernel_api_installed)
endif()

set(_nnb_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/nnbridge)
foreach(variant IN LISTS _nnb_variants)
  install(TARGETS nnbridge_${variant} EXPORT nnbridge_${variant}_targets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT devel
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel)
  install(EXPORT nnbridge_${variant}_targets NAMESPACE nnbridge:: DESTINATION ${_nnb_cmake_dir}
    FILE nnbridge-${variant}-targets.cmake COMPONENT devel)
endforeach()
if(TARGET nnbridge_cpu_kernel_api_installed)
  install(TARGETS nnbridge_cpu_kernel_api_installed EXPORT nnbridge_api_targets COMPONENT devel)
  install(EXPORT nnbridge_api_targets NAMESPACE nnbridge:: DESTINATION ${_nnb_cmake_dir}
    FILE nnbridge-api-targets.cmake COMPONENT devel)
endif()

# Dependencies of the archive, for nnbridgeConfig.cmake and nnbridge.pc.
set(NNBRIDGE_STATIC_DEPENDENCIES "")
set(NNBRIDGE_PC_LIBS_PRIVATE "")
foreach(e IN LISTS _nnb_externals)
  _nnbridge_dependency(${e} pkg flag)
  if(pkg)
    list(APPEND NNBRIDGE_STATIC_DEPENDENCIES ${pkg})
  endif()
  if(flag)
    string(APPEND NNBRIDGE_PC_LIBS_PRIVATE " ${flag}")
  endif()
endforeach()
list(REMOVE_DUPLICATES NNBRIDGE_STATIC_DEPENDENCIES)
list(JOIN NNBRIDGE_STATIC_DEPENDENCIES ", " NNBRIDGE_STATIC_DEPENDENCIES_TEXT)
if(TARGET nnbridge_gpu)
  set(NNBRIDGE_HAS_OPENCL TRUE)
else()
  set(NNBRIDGE_HAS_OPENCL FALSE)
endif()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/nnbridgeConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/nnbridgeConfig.cmake
  INSTALL_DESTINATION ${_nnb_cmake_dir})
# The soname rule above: 0.x only the same minor version, from 1.0 the same major version.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/nnbridgeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${_nnb_compatibility})
install(FILES ${CMAKE_BINARY_DIR}/package/nnbridgeConfig.cmake ${CMAKE_BINARY_DIR}/package/nnbridgeConfigVersion.cmake
  DESTINATION ${_nnb_cmake_dir} COMPONENT devel)

# pkg-config: ${prefix}-relative paths, so a relocated prefix still works with --define-prefix.
set(NNBRIDGE_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
set(NNBRIDGE_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(NNBRIDGE_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(NNBRIDGE_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
endif()
if(_nnb_variants)
  set(NNBRIDGE_PC_PREFIX "%NNBRIDGE_PREFIX%")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/nnbridge.pc.in ${CMAKE_BINARY_DIR}/package/nnbridge.pc.in @ONLY)
  # ${prefix} is the install prefix at install time (cmake --install --prefix), not at configure.
  install(CODE "
    file(READ \"${CMAKE_BINARY_DIR}/package/nnbridge.pc.in\" pc)
    string(REPLACE \"%NNBRIDGE_PREFIX%\" \"\${CMAKE_INSTALL_PREFIX}\" pc \"\${pc}\")
    file(WRITE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/nnbridge.pc\" \"\${pc}\")
    message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/nnbridge.pc\")"
    COMPONENT devel)
endif()
