# host_tool.cmake - the compiler for the host when this tree is configured
# with a cross toolchain (a firmware project's add_subdirectory): a separate
# host build of this same source tree in <binary dir>/host, built before any
# target that compiles a model, rebuilt when its sources change.  Sets the
# global properties TINYENGINE_HOST_TOOL (the executable) and
# TINYENGINE_HOST_TOOL_TARGET (the target to depend on), which
# tinyengine_add_model() reads.  The host C compiler: $CC or cc, as for any
# CMake project; TE_HOST_CMAKE_ARGS passes more settings to the host build.
include(ExternalProject)
set(TE_HOST_CMAKE_ARGS "" CACHE STRING "Extra cmake arguments of the host build of the compiler")
set(te_host_dir ${CMAKE_CURRENT_BINARY_DIR}/host)
set(te_host_exe ${te_host_dir}/tinyengine${CMAKE_HOST_EXECUTABLE_SUFFIX})
ExternalProject_Add(tinyengine_host
  SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}
  BINARY_DIR ${te_host_dir}
  CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release -DTE_BUILD_TESTS=OFF ${TE_HOST_CMAKE_ARGS}
  BUILD_COMMAND ${CMAKE_COMMAND} --build ${te_host_dir} --target tinyengine
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  BUILD_BYPRODUCTS ${te_host_exe})
set_property(GLOBAL PROPERTY TINYENGINE_HOST_TOOL ${te_host_exe})
set_property(GLOBAL PROPERTY TINYENGINE_HOST_TOOL_TARGET tinyengine_host)
include(${CMAKE_CURRENT_LIST_DIR}/TinyEngine.cmake)
