# TinyEngine.cmake - use the TinyEngine compiler from a CMake project:
#
#   include(path/to/tinyengine/cmake/TinyEngine.cmake)
#   tinyengine_add_model(<target> <model.tflite> [NAME <name>] [TARGET <cpu>]
#                        [OPTIONS <extra tinyengine compile arguments>...])
#
# At build time `tinyengine compile` turns the model into <name>.h and <name>.c
# (in <build>/tinyengine/<name>/); the .c is added to <target>'s sources and
# the folder to its include path, so `#include "<name>.h"` works. The model is
# recompiled when the .tflite file or the compiler changes.
#   NAME    C prefix of the generated symbols (default: the model's file name)
#   TARGET  generic (default), cortex-m0plus, cortex-m4 or cortex-m7
# The compiler used: the `tinyengine` target when it is part of this build,
# else TINYENGINE_EXECUTABLE, else `tinyengine` found on the PATH.
include_guard(GLOBAL)

set(TINYENGINE_EXECUTABLE "" CACHE FILEPATH "The tinyengine compiler (host executable)")

function(_tinyengine_compiler out_exe out_dep)
  if(TARGET tinyengine)
    set(${out_exe} $<TARGET_FILE:tinyengine> PARENT_SCOPE)
    set(${out_dep} tinyengine PARENT_SCOPE)
    return()
  endif()
  set(exe "${TINYENGINE_EXECUTABLE}")
  if(NOT exe)
    find_program(TINYENGINE_FOUND_EXECUTABLE tinyengine)
    set(exe "${TINYENGINE_FOUND_EXECUTABLE}")
  endif()
  if(NOT exe OR NOT EXISTS "${exe}")
    message(FATAL_ERROR "tinyengine_add_model: no tinyengine compiler; build it and set "
                        "-DTINYENGINE_EXECUTABLE=/path/to/tinyengine")
  endif()
  set(${out_exe} "${exe}" PARENT_SCOPE)
  set(${out_dep} "${exe}" PARENT_SCOPE)
endfunction()

function(tinyengine_add_model target model)
  cmake_parse_arguments(TE "" "NAME;TARGET" "OPTIONS" ${ARGN})
  if(TE_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tinyengine_add_model: unknown arguments ${TE_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(model_abs "${model}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT TE_NAME)
    get_filename_component(TE_NAME "${model}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${TE_NAME}" TE_NAME)
  endif()
  if(NOT TE_TARGET)
    set(TE_TARGET generic)
  endif()
  _tinyengine_compiler(te_exe te_dep)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/tinyengine/${TE_NAME}")
  add_custom_command(
    OUTPUT "${out}/${TE_NAME}.c" "${out}/${TE_NAME}.h"
    COMMAND "${te_exe}" compile "${model_abs}" -o "${out}" --name ${TE_NAME}
            --target ${TE_TARGET} ${TE_OPTIONS}
    DEPENDS "${model_abs}" ${te_dep}
    COMMENT "tinyengine: ${model} -> ${TE_NAME}.c (${TE_TARGET})"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}/${TE_NAME}.c" "${out}/${TE_NAME}.h")
  target_include_directories(${target} PRIVATE "${out}")
endfunction()
