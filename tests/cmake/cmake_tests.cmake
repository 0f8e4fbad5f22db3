# cmake_tests.cmake - TinyEngine used from other CMake projects, made in the
# build folder (outside the repository):
#  cmake.package          cmake --install, moved prefix, find_package(TinyEngine),
#                         Cortex-M4 firmware run under QEMU
#  cmake.add_subdirectory the same through add_subdirectory() of this tree
#                         while cross-compiling (the compiler built for the host)
#  cmake.configure_errors missing model, unknown TARGET, bad NAME: configure fails
foreach(mode package subdirectory)
  set(name cmake.${mode})
  if(mode STREQUAL "subdirectory")
    set(name cmake.add_subdirectory)
  endif()
  add_test(NAME ${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cmake/consumer.sh ${mode} ${CMAKE_SOURCE_DIR}
                   $<TARGET_FILE:tinyengine> ${CMAKE_BINARY_DIR} ${CMAKE_BINARY_DIR}/cmake-${mode})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
add_test(NAME cmake.configure_errors
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cmake/configure_errors.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR}/cmake-errors)
