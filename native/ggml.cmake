# ggml alone, built here from the source of the llama.cpp release the project pins as its
# reference (llama-cpp-python in pyproject.toml), for the CPU it is built on (GGML_NATIVE, as
# pip's build of llama-cpp-python does). The same version as the reference's ggml, with the same
# sonames: in a process that loads both (the tests, the benchmarks) one copy serves both.
# Defines the targets ggml::ggml, ggml::ggml-base and ggml::ggml-cpu, and GGML_LIBRARY_TARGETS.

file(READ "${PROJECT_SOURCE_DIR}/pyproject.toml" _pyproject)
string(REGEX MATCH "\"llama-cpp-python==([0-9.]+)\"" _pin "${_pyproject}")
set(CODECHECK_GGML_RELEASE "${CMAKE_MATCH_1}")
if(NOT CODECHECK_GGML_RELEASE)
  message(FATAL_ERROR "pyproject.toml pins no llama-cpp-python==X (the release whose ggml is built)")
endif()

set(CODECHECK_GGML_SOURCE "" CACHE PATH "a ggml source tree to build instead of the pinned release's")
if(NOT CODECHECK_GGML_SOURCE)
  set(_dir "${CMAKE_BINARY_DIR}/ggml-source-${CODECHECK_GGML_RELEASE}")
  set(_sdist "${_dir}/llama_cpp_python-${CODECHECK_GGML_RELEASE}.tar.gz")
  if(NOT EXISTS "${_sdist}")
    # pip keeps the download in its cache: a second build does not fetch it again
    find_package(Python COMPONENTS Interpreter REQUIRED)
    message(STATUS "ggml: fetching llama-cpp-python ${CODECHECK_GGML_RELEASE}'s source (pip download)")
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m pip download -q --no-deps --no-binary llama-cpp-python
              "llama-cpp-python==${CODECHECK_GGML_RELEASE}" -d "${_dir}"
      RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0 OR NOT EXISTS "${_sdist}")
      message(FATAL_ERROR "could not download llama-cpp-python ${CODECHECK_GGML_RELEASE}'s source "
                          "for its ggml; offline, pass -DCODECHECK_GGML_SOURCE=<a ggml source tree>")
    endif()
  endif()
  set(CODECHECK_GGML_SOURCE "${_dir}/llama_cpp_python-${CODECHECK_GGML_RELEASE}/vendor/llama.cpp/ggml")
  if(NOT EXISTS "${CODECHECK_GGML_SOURCE}/CMakeLists.txt")
    file(ARCHIVE_EXTRACT INPUT "${_sdist}" DESTINATION "${_dir}"
         PATTERNS "llama_cpp_python-${CODECHECK_GGML_RELEASE}/vendor/llama.cpp/ggml/*")
  endif()
  # the sdist leaves out the pkg-config template that ggml's stand-alone build configures
  if(NOT EXISTS "${CODECHECK_GGML_SOURCE}/ggml.pc.in")
    file(WRITE "${CODECHECK_GGML_SOURCE}/ggml.pc.in" "")
  endif()
endif()

option(CODECHECK_GGML_NATIVE "build ggml for this machine's CPU (-march=native)" ON)
# ggml's own default turns it off where SOURCE_DATE_EPOCH is set (reproducible builds)
set(GGML_NATIVE ${CODECHECK_GGML_NATIVE} CACHE BOOL "" FORCE)
# llama.cpp turns on llamafile's tiled f16/q8_0 products (ggml's own default is off): without
# them the f16 copies the checker runs for layer types of no packed product of ours are slower
set(GGML_LLAMAFILE ON CACHE BOOL "" FORCE)
set(GGML_BUILD_TESTS OFF CACHE BOOL "" FORCE)
set(GGML_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
set(BUILD_SHARED_LIBS ON)
add_subdirectory("${CODECHECK_GGML_SOURCE}" ggml EXCLUDE_FROM_ALL)

set(GGML_LIBRARY_TARGETS ggml ggml-base ggml-cpu)
foreach(_t IN LISTS GGML_LIBRARY_TARGETS)
  if(NOT TARGET ggml::${_t})
    add_library(ggml::${_t} ALIAS ${_t})
  endif()
  # the file is named by its soname (libggml-base.so.0), so a wheel holds one copy, not three
  get_target_property(_so ${_t} SOVERSION)
  set_target_properties(${_t} PROPERTIES VERSION "${_so}" INSTALL_RPATH "$ORIGIN")
endforeach()
