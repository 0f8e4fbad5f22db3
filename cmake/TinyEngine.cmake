# TinyEngine.cmake - use the TinyEngine compiler from a CMake project, in one
# of three ways (none needs any variable set):
#
#   add_subdirectory(path/to/tinyengine)   # builds the compiler for the host,
#                                          # also when this project cross-compiles
#   find_package(TinyEngine REQUIRED)      # an installed TinyEngine (cmake --install)
#   include(path/to/tinyengine/cmake/TinyEngine.cmake)  # a tinyengine on the PATH
#
#   tinyengine_add_model(<target> <model.tflite> [NAME <name>] [TARGET <cpu>]
#                        [OPTIONS <extra tinyengine compile arguments>...])
#
# At build time `tinyengine compile` turns the model into <name>.h and <name>.c
# (in <build>/tinyengine/<name>/); the .c is added to <target>'s sources and
# the folder to its include path, so `#include "<name>.h"` works. The model is
# recompiled when the .tflite file or the compiler changes. A missing model
# file, an unknown TARGET or a bad NAME is an error when CMake configures.
#   NAME    C prefix of the generated symbols (default: the model's file name)
#   TARGET  generic (default), cortex-m0plus, cortex-m4, cortex-m7 or x86-64-v3
# The compiler used: TINYENGINE_EXECUTABLE when set; else the `tinyengine`
# target of this build (add_subdirectory), or its host build when
# cross-compiling; else the installed package's TinyEngine::tinyengine; else
# `tinyengine` on the PATH.
# TINYENGINE_CORTEX_M_DIR: the Cortex-M support files (startup.c, semihost.c,
# linker scripts mps2-an386.ld / mps2-an500.ld; targets/cortex-m/README.md).
include_guard(GLOBAL)

set(TINYENGINE_EXECUTABLE "" CACHE FILEPATH "The tinyengine compiler (host executable); empty: found")
if(NOT TINYENGINE_CORTEX_M_DIR AND EXISTS "${CMAKE_CURRENT_LIST_DIR}/../targets/cortex-m/startup.c")
  get_filename_component(_te_cm "${CMAKE_CURRENT_LIST_DIR}/../targets/cortex-m" ABSOLUTE)
  set(TINYENGINE_CORTEX_M_DIR "${_te_cm}" CACHE PATH "TinyEngine's Cortex-M support files")
  unset(_te_cm)
endif()

# The compiler to run (out_exe) and what the generation step depends on:
# files (out_dep) and a target to build first (out_target, may be empty).
function(_tinyengine_compiler out_exe out_dep out_target)
  set(${out_target} "" PARENT_SCOPE)
  get_property(host_exe GLOBAL PROPERTY TINYENGINE_HOST_TOOL)
  get_property(host_target GLOBAL PROPERTY TINYENGINE_HOST_TOOL_TARGET)
  if(TINYENGINE_EXECUTABLE)
    set(exe "${TINYENGINE_EXECUTABLE}")
    if(NOT EXISTS "${exe}")
      message(FATAL_ERROR "tinyengine_add_model: TINYENGINE_EXECUTABLE '${exe}' does not exist")
    endif()
  elseif(TARGET tinyengine AND NOT CMAKE_CROSSCOMPILING)
    set(${out_exe} $<TARGET_FILE:tinyengine> PARENT_SCOPE)
    set(${out_dep} tinyengine PARENT_SCOPE)
    return()
  elseif(host_exe)
    set(exe "${host_exe}")
    set(${out_target} ${host_target} PARENT_SCOPE)
  elseif(TARGET TinyEngine::tinyengine)
    get_target_property(exe TinyEngine::tinyengine IMPORTED_LOCATION)
  else()
    find_program(TINYENGINE_FOUND_EXECUTABLE tinyengine)
    set(exe "${TINYENGINE_FOUND_EXECUTABLE}")
    if(NOT exe)
      message(FATAL_ERROR "tinyengine_add_model: no tinyengine compiler: add_subdirectory() the "
                          "TinyEngine source tree, find_package(TinyEngine) an installed one, "
                          "or set TINYENGINE_EXECUTABLE")
    endif()
  endif()
  set(${out_exe} "${exe}" PARENT_SCOPE)
  set(${out_dep} "${exe}" PARENT_SCOPE)
endfunction()

function(tinyengine_add_model target model)
  cmake_parse_arguments(TE "" "NAME;TARGET" "OPTIONS" ${ARGN})
  if(TE_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tinyengine_add_model: unknown arguments ${TE_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tinyengine_add_model: '${target}' is not a target of this project")
  endif()
  get_filename_component(model_abs "${model}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_source_file_property(generated "${model_abs}" GENERATED)
  if(NOT EXISTS "${model_abs}" AND NOT generated)
    message(FATAL_ERROR "tinyengine_add_model: model file '${model_abs}' does not exist")
  endif()
  if(NOT TE_NAME)
    get_filename_component(TE_NAME "${model}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${TE_NAME}" TE_NAME)
  endif()
  string(MAKE_C_IDENTIFIER "${TE_NAME}" name_ident)
  if(NOT name_ident STREQUAL TE_NAME)
    message(FATAL_ERROR "tinyengine_add_model: NAME '${TE_NAME}' is not a C identifier")
  endif()
  if(NOT TE_TARGET)
    set(TE_TARGET generic)
  endif()
  set(known generic cortex-m0plus cortex-m4 cortex-m7 x86-64-v3)
  if(NOT TE_TARGET IN_LIST known)
    string(REPLACE ";" ", " known "${known}")
    message(FATAL_ERROR "tinyengine_add_model: unknown TARGET '${TE_TARGET}' (${known})")
  endif()
  _tinyengine_compiler(te_exe te_dep te_build_first)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/tinyengine/${TE_NAME}")
  add_custom_command(
    OUTPUT "${out}/${TE_NAME}.c" "${out}/${TE_NAME}.h"
    COMMAND "${te_exe}" compile "${model_abs}" -o "${out}" --name ${TE_NAME}
            --target ${TE_TARGET} ${TE_OPTIONS}
    DEPENDS "${model_abs}" ${te_dep}
    COMMENT "tinyengine: ${model} -> ${TE_NAME}.c (${TE_TARGET})"
    VERBATIM)
  if(te_build_first)
    add_dependencies(${target} ${te_build_first})
  endif()
  target_sources(${target} PRIVATE "${out}/${TE_NAME}.c" "${out}/${TE_NAME}.h")
  target_include_directories(${target} PRIVATE "${out}")
endfunction()
